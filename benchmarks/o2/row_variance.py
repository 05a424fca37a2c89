# bench: --entry=f --input=x:float32[4096,1024]
# floor: reads
# The variance of each row written out: deviations from a kept-dims mean, squared, averaged.
import numpy as np


def f(x):
    mu = x.mean(axis=1, keepdims=True)
    return np.mean((x - mu) ** 2, axis=1)
