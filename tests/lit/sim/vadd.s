; One tile through GM→UB (MTE2), vadd (V), UB→GM (MTE3): the sum, the cycles and the pipe table.
; RUN: %python -c "import numpy as np; np.arange(128, dtype=np.float16).tofile('%t.a')"
; RUN: %asc-sim %s --gm-size 0x10000 --load %t.a@0x0 --args 0x0,0x1000 --dump 0x1000:256:%t.out | FileCheck %s
; RUN: %python -c "import numpy as np; a = np.arange(128, dtype=np.float16); assert (np.fromfile('%t.out', dtype=np.float16) == a + a).all()"

copy_gm_ub ub[0x0], gm[x1+0x0], nburst=1, len=8
set_flag MTE2, V, 0
wait_flag MTE2, V, 0
vadd.f16 ub[0x100], ub[0x0], ub[0x0]
set_flag V, MTE3, 0
wait_flag V, MTE3, 0
copy_ub_gm gm[x2+0x0], ub[0x100], nburst=1, len=8
end

; MTE2 holds its pipe 19 cycles (16 of per-copy overhead, then two 128-byte lines at 110 B/cycle) and
; the data lands 236 cycles later; the flag is visible 10 cycles after that, V runs 3 cycles (1 startup,
; 2 for a two-operand repeat), MTE3 holds 19 cycles and completes 96 cycles later: 394 cycles of the
; core, after the launch's 3700.
; CHECK:      cycles: 4094
; CHECK-NEXT: pipe          busy    util  instructions
; CHECK-NEXT: S                8    0.2%             8
; CHECK-NEXT: V                3    0.1%             3
; CHECK-NEXT: M                0    0.0%             0
; CHECK-NEXT: MTE1             0    0.0%             0
; CHECK-NEXT: MTE2            19    0.5%             2
; CHECK-NEXT: MTE3            19    0.5%             2
; CHECK-NEXT: FIX              0    0.0%             0
; CHECK-NEXT: bytes gm_to_ub: 256
; CHECK-NEXT: bytes ub_to_gm: 256
; CHECK-NEXT: vector lanes: 128
