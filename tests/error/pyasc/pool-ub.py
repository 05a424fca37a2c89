# RUN: pyasc --target=ascend310 --entry=f --input=x:float32[1,8,4000,64] %s -o /dev/null
from pyasc import nn


def f(x):
    return nn.max_pool2d(x, 3, stride=1)
