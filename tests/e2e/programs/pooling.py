# e2e: --entry=net --input=x:float32[2,12,15,24] --input=y:float16[1,3,9,11]
# Max and average pooling: NHWC and NCHW, strides, padding (averages count it), a global average.
import numpy as np
from pyasc import nn


def net(x, y):
    peaks = nn.max_pool2d(x, 3, stride=2, padding=1)
    means = nn.avg_pool2d(x, (2, 3), stride=(2, 1), padding=(1, 1, 0, 1))
    planes = nn.max_pool2d(y, 2, layout="NCHW")
    smooth = nn.avg_pool2d(y, 3, stride=1, padding=1, layout="NCHW")
    pooled = nn.avg_pool2d(nn.max_pool2d(x, 2), (6, 7))
    return peaks, means, planes, smooth, np.maximum(pooled, 0)
