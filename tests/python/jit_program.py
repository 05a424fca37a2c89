# A NumPy module whose functions tests/python/test_binding.py compiles with pyasc.jit.
import numpy as np


def smooth(x, w):
    return np.tanh(x) * w + np.maximum(x, 0.5)


def stats(m):
    return m.mean(axis=1), np.argmax(m, axis=1)
