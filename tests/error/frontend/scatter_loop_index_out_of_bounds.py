# RUN: asc-fe --emit=graph --entry=f --input=a:float32[8] %s
import numpy as np


def f(a):
    x = np.zeros(4, dtype=np.float32)
    for i in range(6):
        x[i] += a[i]
    return x
