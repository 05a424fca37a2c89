# e2e: --entry=net --input=x:float32[2,14,14,8] --input=w1:float32[3,3,8,16] --input=w2:float32[1,1,16,4] --input=dw:float32[3,3,1,16]
# Convolution layers: a padded 3x3, a depthwise 3x3 with stride 2, and a 1x1 projection.
import numpy as np
from pyasc import nn


def net(x, w1, w2, dw):
    h = np.maximum(nn.conv2d(x, w1, padding=(1, 1, 1, 1)), 0)
    d = nn.conv2d(h, dw, stride=(2, 2), padding=(1, 1, 1, 1), groups=16)
    return nn.conv2d(d, w2)
