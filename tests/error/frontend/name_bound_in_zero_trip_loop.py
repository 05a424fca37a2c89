# RUN: asc-fe --emit=graph --entry=f --input=a:float32[4] %s
import numpy as np


def f(a):
    for i in range(2, 2):
        b = a[i + 5] * 2
    return b
