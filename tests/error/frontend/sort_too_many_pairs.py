# RUN: asc-fe --emit=graph --entry=f --input=a:float32[8192] %s
import numpy as np


def f(a):
    return np.sort(a)
