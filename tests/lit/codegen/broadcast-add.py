# A row vector added to every row: the kernel loads the row once into a constant UB tile and
# doubles it there on V (64, then 128 elements) until it covers a whole tile, so no copy kernel
# materialises the broadcast; then one vadd per tile reads it in place.
# RUN: %pyasc --target=ascend310 --entry=f --input=x:float32[8,64] --input=row:float32[64] %s -o %t.om
# RUN: %pyasc disasm %t.om | FileCheck %s
# CHECK-LABEL: elementwise_0:
# CHECK-NOT: broadcast_
# CHECK: copy_gm_ub ub[0x800], gm[x2+0x0], nburst=1, len=8
# CHECK-NEXT: set_flag MTE2, S, 0
# CHECK-NEXT: wait_flag MTE2, S, 0
# CHECK-NEXT: copy_ub_ub ub[0x900], ub[0x800], nburst=1, len=8
# CHECK-NEXT: pipe_barrier V
# CHECK-NEXT: copy_ub_ub ub[0xa00], ub[0x800], nburst=1, len=16
# CHECK-NEXT: pipe_barrier V
# CHECK: vadd.f32 ub[0x0], ub[0x0], ub[0x800], repeat=4, blk=1/1/1, rep=8/8/8


def f(x, row):
    return x + row
