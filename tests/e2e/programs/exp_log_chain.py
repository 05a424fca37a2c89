# e2e: --entry=f --input=x:float32[1000]
# Transcendental functions on positive data.
import numpy as np


def f(x):
    y = x + 0.5
    return np.log(y) * np.exp(-y) + np.sqrt(y), np.log2(y), np.log10(y) + np.exp2(x)
