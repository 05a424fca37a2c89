# e2e: --entry=f --input=x:float32[40,50]
# Slices with steps, negative indices, reversal and np.newaxis.
import numpy as np


def f(x):
    a = x[::2, 1::3]
    b = x[-5:, ::-1]
    c = x[3, :][np.newaxis, :] + x[:, 7][:, np.newaxis]
    return a, b, c
