# RUN: asc-fe --emit=graph --entry=f --input=x:float32[1,4,4,8] %s
from pyasc import nn


def f(x):
    return nn.max_pool2d(x, 5)
