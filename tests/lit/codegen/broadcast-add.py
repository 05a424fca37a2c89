# A row vector added to every row: the row is first broadcast by a copy kernel (one DMA per row),
# then one fused vadd runs over whole tiles.
# RUN: %pyasc --target=ascend310 --entry=f --input=x:float32[8,64] --input=row:float32[64] %s -o %t.om
# RUN: %pyasc disasm %t.om | FileCheck %s
# CHECK-LABEL: broadcast_0:
# CHECK: copy_gm_ub ub[0x0], gm[x1+0x0], nburst=1, len=8
# CHECK: copy_ub_gm gm[x2+0x0], ub[0x0], nburst=1, len=8
# CHECK-LABEL: elementwise_1:
# CHECK: vadd.f32 ub[0x0], ub[0x0], ub[0x400], repeat=4, blk=1/1/1, rep=8/8/8


def f(x, row):
    return x + row
