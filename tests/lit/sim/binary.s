; asc-sim also runs the binary asc-as writes: same cycles as the assembly text.
; RUN: %asc-as %s -o %t.bin
; RUN: %asc-sim %t.bin --gm-size 0x10000 --args 0x0 | FileCheck %s
; RUN: %asc-sim %s --gm-size 0x10000 --args 0x0 | FileCheck %s

li x5, 0
li x6, 3
loop:
vadd.f32 ub[0x0], ub[0x0], ub[0x100], repeat=2
add x5, x5, 1
blt x5, x6, loop
set_flag V, MTE3, 0
wait_flag V, MTE3, 0
copy_ub_gm gm[x1+0x0], ub[0x0], nburst=1, len=16
end

; Three vadds of 5 cycles (1 startup, 2 repeats of 2 cycles) back to back, the flag seen 10 cycles
; after the last, then the copy: 16 cycles of overhead, four 128-byte lines at 86 B/cycle and a
; 96-cycle write latency; the launch's 3700 cycles come first.
; CHECK:      cycles: 3846
; CHECK:      V               15
