# RUN: asc-fe --emit=graph --entry=f --input=a:float32[3,4] --input=b:float32[4,5] %s
import numpy as np

def f(a, b):
    c = a + b
    d = np.summ(a)
    e = a @ b
    return e + undefined_name
