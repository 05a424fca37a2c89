# RUN: asc-fe --emit=graph --entry=f --input=x:int32[16] %s
import numpy as np


def f(x):
    return np.bincount(x)
