# RUN: asc-fe --emit=graph --entry=f --input=x:float16[1,3,8,8] %s
from pyasc import nn


def f(x):
    return nn.avg_pool2d(x, 3, padding=2, layout="NCHW")
