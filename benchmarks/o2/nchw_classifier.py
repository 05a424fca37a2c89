# bench: --entry=f --input=x:float32[4,3,64,64] --input=w1:float32[32,3,3,3] --input=w2:float32[64,32,3,3] --input=w3:float32[10,64,1,1]
# A small NCHW classifier: two strided 3x3 convolutions with ReLU, a 1x1 convolution to 10 classes
# and a global average pool.
import numpy as np
from pyasc import nn


def f(x, w1, w2, w3):
    h = np.maximum(nn.conv2d(x, w1, stride=(2, 2), padding=(1, 1, 1, 1), layout="NCHW"), 0)
    h = np.maximum(nn.conv2d(h, w2 * 0.2, stride=(2, 2), padding=(1, 1, 1, 1), layout="NCHW"), 0)
    return nn.conv2d(h, w3, layout="NCHW").mean(axis=(2, 3))
