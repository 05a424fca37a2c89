# e2e: --entry=f --input=x:float32[1,28,28,512] --input=w:float32[1,1,512,256]
# ResNet-50's 1x1 stride-2 projection on 28x28x512 in float32: a window of every input channel
# (5 rows x 28 x 512 x 4 bytes, twice) does not fit ascend910b's 512 KB L1, so the tiles' windows
# hold fewer channels and their K chunks accumulate in L0C across window loads.
import numpy as np
from pyasc import nn


def f(x, w):
    return nn.conv2d(x - 0.5, w - 0.5, stride=(2, 2))
