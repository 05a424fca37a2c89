# RUN: asc-fe --emit=graph --entry=f --input=a:float32[8,4] --input=m:float32[4] %s
import numpy as np

def f(a, m):
    return a[m > 0].sum()
