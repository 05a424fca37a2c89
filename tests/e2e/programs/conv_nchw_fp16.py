# e2e: --entry=conv --input=x:float16[1,8,12,12] --input=w:float16[12,8,3,3]
# A half-precision NCHW convolution with dilation (float16 inputs, float32 accumulation).
import numpy as np
from pyasc import nn


def conv(x, w):
    return nn.conv2d(x, w, dilation=(2, 2), padding=(2, 2, 2, 2), layout="NCHW")
