; GM regions from the command line: a write into a read-only region is an error.
; RUN: %asc-sim %s --gm-size 0x10000 --args 0x0 --region in:0x0:0x1000:ro --region out:0x1000:0x1000 2> %t.err; test $? -eq 1 && FileCheck %s < %t.err

copy_ub_gm gm[x1+0x20], ub[0x0], nburst=1, len=1
end

; CHECK: asc-sim: error: core 0, instruction 0 (copy_ub_gm gm[x1+0x20], ub[0x0], nburst=1, len=1, srcgap=0, dstgap=0): write to read-only gm region 'in' at [0x20..0x40)
