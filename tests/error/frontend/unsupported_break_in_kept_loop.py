# RUN: asc-fe --emit=graph --entry=f --input=a:float32[8] %s
import numpy as np

def f(a):
    for i in range(8):
        a[i] = 0
        break
    return a
