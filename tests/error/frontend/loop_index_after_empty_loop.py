# RUN: asc-fe --emit=graph --entry=f --input=a:float32[4] %s
import numpy as np
def f(a):
    for i in range(0):
        a[i] = 1
    return a * i
