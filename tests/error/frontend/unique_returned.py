# RUN: asc-fe --emit=graph --entry=f --input=x:float32[4,4] %s
import numpy as np


def f(x):
    return np.unique(x)
