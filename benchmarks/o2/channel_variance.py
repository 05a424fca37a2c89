# bench: --entry=f --input=a:float32[8,56,56,64]
# floor: reads
# Batch-norm statistics of an NHWC activation: per-channel mean, then the mean squared deviation.
import numpy as np


def f(a):
    mean = a.mean(axis=(0, 1, 2))
    return ((a - mean) ** 2).mean(axis=(0, 1, 2))
