# e2e: --entry=f --input=x:float32[16,64]
# tanh, sigmoid-style and leaky activations spelled with NumPy.
import numpy as np


def f(x):
    s = 1.0 / (1.0 + np.exp(-x))
    t = np.tanh(x)
    l = np.where(x > 0, x, 0.01 * x)
    return s, t, l
