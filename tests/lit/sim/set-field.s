; set_field: lengths and repeats taken from registers (docs/isa.md): a copy of x3 = 5 blocks, a vadd of
; x4 = 1 repeat, both tails of what the immediates say; the bytes beyond them stay as they were.
; RUN: %python -c "import numpy as np; np.arange(256, dtype=np.float16).tofile('%t.a')"
; RUN: %asc-sim %s --gm-size 0x10000 --load %t.a@0x0 --args 0x0,0x1000 --dump 0x1000:512:%t.out | FileCheck %s
; RUN: %python -c "import numpy as np; a = np.arange(256, dtype=np.float16); o = np.fromfile('%t.out', dtype=np.float16); assert (o[:80] == a[:80] + a[:80]).all() and (o[80:128] == 0).all() and (o[128:] == 0).all(), o"
; A field the next instruction does not have, a value outside the field and a set_field left pending are faults.
; RUN: not %asc-sim %S/Inputs/set-field-missing.s 2>&1 | FileCheck %s --check-prefix=MISSING
; RUN: not %asc-sim %S/Inputs/set-field-range.s 2>&1 | FileCheck %s --check-prefix=RANGE
; RUN: not %asc-sim %S/Inputs/set-field-pending.s 2>&1 | FileCheck %s --check-prefix=PENDING

li x3, 5
li x4, 1
set_field burstLen, x3
copy_gm_ub ub[0x0], gm[x1+0x0], nburst=1, len=0
set_flag MTE2, V, 0
wait_flag MTE2, V, 0
set_field repeat, x4
vadd.f16 ub[0x200], ub[0x0], ub[0x0], repeat=0, blk=1/1/1, rep=8/8/8
li x5, 6
vadd.f16 ub[0x300], ub[0x0], ub[0x0], repeat=0, blk=1/1/1, rep=8/8/8
set_flag V, MTE3, 0
wait_flag V, MTE3, 0
set_field burstLen, x5
copy_ub_gm gm[x2+0x0], ub[0x200], nburst=1, len=0
end

; CHECK: bytes gm_to_ub: 160
; CHECK: bytes ub_to_gm: 192
; MISSING: set_field h: copy_gm_ub has no field h
; RANGE: set_field repeat = 256 is out of range 0..255
; PENDING: set_field burstLen: end has no field burstLen
