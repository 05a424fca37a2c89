# RUN: asc-fe --emit=graph --entry=f --input=a:float32[64] %s
import numpy as np

def f(a, n: int):
    for i in range(n):
        a[i] = 0
    return a
