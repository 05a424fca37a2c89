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

; Three vadds of 12 cycles back to back from cycle 3, the flag set at 39 and seen at 40, then the
; copy: 200 + 512 B at 64 B/cycle.
; CHECK:      cycles: 246
; CHECK:      V               36
