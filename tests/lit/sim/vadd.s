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

; MTE2 runs 1..209 (200 latency + 256 B at 32 B/cycle), V waits for the flag (visible at 210) and
; runs 11 cycles, MTE3 starts at 222 and takes 200 + 256 B at 64 B/cycle.
; CHECK:      cycles: 426
; CHECK-NEXT: pipe          busy    util  instructions
; CHECK-NEXT: S                8    1.9%             8
; CHECK-NEXT: V               11    2.6%             3
; CHECK-NEXT: M                0    0.0%             0
; CHECK-NEXT: MTE1             0    0.0%             0
; CHECK-NEXT: MTE2           208   48.8%             2
; CHECK-NEXT: MTE3           204   47.9%             2
; CHECK-NEXT: FIX              0    0.0%             0
; CHECK-NEXT: bytes gm_to_ub: 256
; CHECK-NEXT: bytes ub_to_gm: 256
; CHECK-NEXT: vector lanes: 128
