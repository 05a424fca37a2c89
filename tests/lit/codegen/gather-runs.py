# A gather of columns [39, 0, 1, 2, 3, 20] from a 6x40 float16 array: three runs of consecutive
# indices, each one DMA pair of six bursts (one per row), the run 0..3 as one 8-byte burst per row;
# the runs are dealt to the cores in turn, with a barrier between them.
# RUN: %pyasc --target=ascend310 --entry=f --input=x:float16[6,40] %s -o %t.om
# RUN: %pyasc disasm %t.om | FileCheck %s
# CHECK-LABEL: gather_0:
# CHECK: copy_gm_ub.b ub[0x0], gm[{{x[0-9]+}}+0x0], nburst=6, len=2, srcgap=78, dstgap=0
# CHECK: copy_ub_gm.b gm[{{x[0-9]+}}+0x0], ub[0x0], nburst=6, len=2, srcgap=0, dstgap=10
# CHECK: pipe_barrier ALL
# CHECK: copy_gm_ub.b ub[0x0], gm[{{x[0-9]+}}+0x0], nburst=6, len=8, srcgap=72, dstgap=0
# CHECK: copy_ub_gm.b gm[{{x[0-9]+}}+0x0], ub[0x0], nburst=6, len=8, srcgap=0, dstgap=4
# CHECK: pipe_barrier ALL
# CHECK: copy_gm_ub.b ub[0x0], gm[{{x[0-9]+}}+0x0], nburst=6, len=2, srcgap=78, dstgap=0
# CHECK: copy_ub_gm.b gm[{{x[0-9]+}}+0x0], ub[0x0], nburst=6, len=2, srcgap=0, dstgap=10
# CHECK-NOT: copy_


def f(x):
    return x[:, [39, 0, 1, 2, 3, 20]]
