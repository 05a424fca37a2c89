; A missing wait_flag between MTE2 and V is reported by the sanitizer, and only by it.
; RUN: %asc-sim %s --gm-size 0x10000 --args 0x0 2> %t.err; test $? -eq 1 && FileCheck %s < %t.err
; RUN: %asc-sim %s --gm-size 0x10000 --args 0x0 --no-sanitize | FileCheck %s --check-prefix=OFF

copy_gm_ub ub[0x0], gm[x1+0x0], nburst=1, len=8
vadd.f16 ub[0x100], ub[0x0], ub[0x0]
end

; CHECK: asc-sim: error: core 0, instruction 1 (vadd.f16 ub[0x100], ub[0x0], ub[0x0], repeat=1, blk=1/1/1, rep=8/8/8): data race: V reads ub[0x0..0x100) written by MTE2 at instruction 0 with no flag or barrier between them
; OFF: cycles:
