# RUN: asc-fe --emit=graph --entry=f --input=a:float32[8] %s
import numpy as np

def f(a):
    return a[a > 0]
