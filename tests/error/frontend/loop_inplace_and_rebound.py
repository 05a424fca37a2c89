# RUN: asc-fe --emit=graph --entry=f --input=x:float32[4] %s
import numpy as np
def f(x):
    first = x
    for i in range(4):
        x[i] = 0
        x = x + 1
    return x, first
