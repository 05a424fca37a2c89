# e2e: --entry=conv --input=x:float32[260]
# A 1-d convolution as a loop over the taps, each adding a shifted slice.
import numpy as np


def conv(x):
    n = x.shape[0] - 4
    acc = np.zeros(n, dtype=np.float32)
    for t in range(5):
        acc = acc + x[t:t + n] * 0.2
    return acc
