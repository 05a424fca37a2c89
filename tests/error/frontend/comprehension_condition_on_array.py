# RUN: asc-fe --emit=graph --entry=f --input=a:float32[4] %s
import numpy as np


def f(a):
    return np.array([x for x in a if x > 0])
