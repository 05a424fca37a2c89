# RUN: pyasc --entry=f --input=x:float32[N,H,W,8] --dynamic-dims=1-2,8-16,8-16 %s -o /dev/null
import numpy as np
from pyasc import nn


def f(x):
    w = np.ones((3, 3, 1, 8), dtype=np.float32)
    return nn.conv2d(x, w, padding=(1, 1, 1, 1), groups=8)
