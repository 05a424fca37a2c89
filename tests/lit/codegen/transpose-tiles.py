# The transpose of a 256x64 float32 array in tiles of 128 rows x 8 columns: rows 8s + t of a tile
# load 16 at a time (one 32-byte burst each, 8 rows apart) into block 16t + s, a vtranspose of
# 16-bit lanes, a vmov permuting blocks per half of the 32-bit elements, a second vtranspose, and
# the tile's 8 output rows leave as one DMA of 512-byte bursts; eight buffer sets rotate.
# RUN: %pyasc --target=ascend910b --entry=f --input=x:float32[256,64] %s -o %t.om
# RUN: %pyasc disasm %t.om | FileCheck %s
# CHECK-LABEL: transpose_0:
# CHECK: set_flag MTE3, MTE2, 7
# CHECK: copy_gm_ub ub[0x0], gm[{{x[0-9]+}}+0x0], nburst=16, len=1, srcgap=63, dstgap=0
# CHECK-NEXT: copy_gm_ub ub[0x200], gm[{{x[0-9]+}}+0x100], nburst=16, len=1, srcgap=63, dstgap=0
# CHECK: copy_gm_ub ub[0xe00], gm[{{x[0-9]+}}+0x700], nburst=16, len=1, srcgap=63, dstgap=0
# CHECK: vtranspose.b16 ub[0x1000], ub[0x0], repeat=8, rep=16/16
# CHECK: vmov.f16 ub[0x0], ub[0x1000], repeat=8, blk=2/16, rep=16/2
# CHECK-NEXT: vmov.f16 ub[0x20], ub[0x1020], repeat=8, blk=2/16, rep=16/2
# CHECK-NEXT: vtranspose.b16 ub[0x1000], ub[0x0], repeat=8, rep=16/16
# CHECK: copy_ub_gm gm[{{x[0-9]+}}+0x0], ub[0x1000], nburst=8, len=16, srcgap=0, dstgap=16


def f(x):
    return x.T
