# RUN: asc-fe --emit=graph --entry=f --input=x:float32[8,16] %s
import numpy as np

def f(x):
    return np.sum(x, axis=2)
