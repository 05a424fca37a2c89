# RUN: asc-fe --emit=graph --entry=f --input=a:float32[3,4] --input=b:float32[5,6] %s
import numpy as np

def f(a, b):
    return np.matmul(a, b)
