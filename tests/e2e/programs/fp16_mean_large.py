# e2e: --entry=f --input=a:float16[180,585]
# float16 means whose sums pass float16's largest value (65504): as NumPy, summed in float32.
import numpy as np


def f(a):
    return np.mean(np.tanh(a) + 1.25), (a + 2.0).mean(axis=0), (a * 0.5 + 3.0).mean()
