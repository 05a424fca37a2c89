# bench: --entry=f --input=x:float32[4096,1024] --input=w:float32[1024]
# floor: reads
# Rows weighted by one broadcast row and summed, a matrix-vector product written elementwise.
import numpy as np


def f(x, w):
    return (x * w).sum(axis=-1)
