# RUN: asc-fe --emit=graph --entry=f --input=a:float32[8,4] --input=w:float32[4,3] %s
import numpy as np

def f(a, w):
    return (a[a[:, 0] > 0] @ w).sum()
