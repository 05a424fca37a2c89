# A vector op over 300 float32 elements: one 256-element tile as four full repeats, then the
# 44-element tail as a byte-mode DMA and one repeat under the mask of lanes 0-43 (2^44 - 1), in the
# buffer set after the full tile's (UB 0x400), free while the full tile is still being stored.
# RUN: %pyasc --target=ascend310 --entry=f --input=x:float32[300] %s -o %t.om
# RUN: %pyasc disasm %t.om | FileCheck %s
# CHECK: vmuls.f32 ub[0x0], ub[0x0], #0x40000000, repeat=4, blk=1/1, rep=8/8
# CHECK: copy_gm_ub.b ub[0x400], gm[x1+0x0], nburst=1, len=176
# CHECK: li [[LO:x[0-9]+]], 17592186044415
# CHECK-NEXT: li [[HI:x[0-9]+]], 0
# CHECK-NEXT: set_vmask [[LO]], [[HI]]
# CHECK-NEXT: vmuls.f32 ub[0x400], ub[0x400], #0x40000000, repeat=1, blk=1/1, rep=8/8
# CHECK: copy_ub_gm.b gm[x2+0x0], ub[0x400], nburst=1, len=176


def f(x):
    return x * 2
