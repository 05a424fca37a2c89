# A 3x3 max pooling with stride 2 and padding 1 over 8x8 pixels of 32 float16 channels: the
# accumulator starts at -inf (0xfc00); each tap is one vmax over the output columns whose input
# column lies inside the image, one repeat per column, under the mask of the 32 channels: the
# accumulator moves one 64-byte pixel (2 blocks) per repeat, the input two pixels (4 blocks). Tap
# column 0 skips output column 0, whose window starts in the padding.
# RUN: %pyasc --target=ascend310 --entry=f --input=x:float16[1,8,8,32] %s -o %t.om
# RUN: %pyasc disasm %t.om | FileCheck %s
# CHECK-LABEL: max_pool2d_0:
# CHECK: vdup.f16 ub[0x600], #0xfc00, repeat=1, blk=1, rep=8
# CHECK: li [[LO:x[0-9]+]], 4294967295
# CHECK-NEXT: li [[HI:x[0-9]+]], 0
# CHECK-NEXT: set_vmask [[LO]], [[HI]]
# CHECK-NEXT: vmax.f16 ub[0x640], ub[0x640], ub[0x240], repeat=3, blk=1/1/1, rep=2/2/4
# CHECK-NEXT: vmax.f16 ub[0x600], ub[0x600], ub[0x200], repeat=4, blk=1/1/1, rep=2/2/4
# CHECK-NEXT: vmax.f16 ub[0x600], ub[0x600], ub[0x240], repeat=4, blk=1/1/1, rep=2/2/4
from pyasc import nn


def f(x):
    return nn.max_pool2d(x, 3, stride=2, padding=1)
