# RUN: asc-fe --emit=graph --entry=f --input=a:float32[4,4] %s
import numpy as np


def f(a):
    return np.linalg.norm(a, 2)
