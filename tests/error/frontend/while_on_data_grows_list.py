# RUN: asc-fe --emit=graph --entry=f --input=a:float32[2] %s
import numpy as np

def f(a):
    path = [a.copy()]
    while a[1] >= 0.0:
        a = a - 1.0
        path.append(a.copy())
    return np.array(path)
