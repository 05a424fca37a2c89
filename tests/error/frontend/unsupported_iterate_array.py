# RUN: asc-fe --emit=graph --entry=f --input=a:float32[4,4] %s
import numpy as np

def f(a):
    total = np.zeros(4, dtype=np.float32)
    for row in a:
        total += row
    return total
