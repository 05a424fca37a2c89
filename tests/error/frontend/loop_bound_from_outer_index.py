# RUN: asc-fe --emit=graph --entry=f --input=a:float32[5000] %s
import numpy as np


def f(a):
    t = a * 0
    for i in range(5000):
        for j in range(i):
            t[i] = t[i] + a[j]
    return t
