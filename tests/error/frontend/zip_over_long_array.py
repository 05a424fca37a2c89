# RUN: asc-fe --entry=f --input=a:float32[5000] --input=b:float32[5000] %s
import numpy as np


def f(a, b):
    total = np.float32(0)
    for x, y in zip(a, b):
        total = total + x * y
    return total
