# RUN: asc-fe --emit=graph --entry=f --input=a:float32[8] --input=b:float32[8] %s
import numpy as np

def f(a, b):
    c = a.copy()
    c[a > 0] = b[b > 0]
    return c
