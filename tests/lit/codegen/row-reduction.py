# A sum over rows of 200 float32: 8 rows per DMA (the 16 rows shared by ascend310's two cores;
# bursts of 25 blocks), lanes accumulated across
# the row's four 64-lane chunks (repeat stride 25 blocks = one row, last chunk masked), then one
# vcadd per row writing consecutive elements.
# RUN: %pyasc --target=ascend310 --entry=f --input=x:float32[16,200] %s -o %t.om
# RUN: %pyasc disasm %t.om | FileCheck %s
# CHECK: copy_gm_ub ub[0x0], gm[x1+0x0], nburst=8, len=25
# CHECK: vmov.f32 [[ACC:ub\[0x[0-9a-f]+\]]], ub[0x0], repeat=8, blk=1/1, rep=8/25
# CHECK-NEXT: vadd.f32 [[ACC]], [[ACC]], ub[0x100], repeat=8, blk=1/1/1, rep=8/8/25
# CHECK-NEXT: vadd.f32 [[ACC]], [[ACC]], ub[0x200], repeat=8, blk=1/1/1, rep=8/8/25
# CHECK: vadd.f32 [[ACC]], [[ACC]], ub[0x300], repeat=8, blk=1/1/1, rep=8/8/25
# CHECK: vcadd.f32 ub[{{0x[0-9a-f]+}}], [[ACC]], repeat=8, blk=1, rep=1/8


def f(x):
    return x.sum(axis=1)
