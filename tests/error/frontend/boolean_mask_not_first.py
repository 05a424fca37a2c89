# RUN: asc-fe --emit=graph --entry=f --input=a:float32[8,4] %s
import numpy as np

def f(a):
    return a[0, a[0] > 0].sum() + a[np.isnan(a)].sum()
