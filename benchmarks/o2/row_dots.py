# bench: --entry=f --input=x:float32[4096,1024] --input=y:float32[4096,1024]
# floor: reads
# Dot products of matching rows.
import numpy as np


def f(x, y):
    return np.sum(x * y, axis=1)
