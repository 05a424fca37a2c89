# RUN: asc-fe --emit=graph --entry=f --input=a:float32[8] %s
import numpy as np

def f(a):
    for i in range(4, 2):
        last = a[2 * i:2 * i + 2]
    return last
