"""NumPy reference of row_softmax: what `ascop test` compares the simulated operator with (float64 inside)."""
import numpy as np


def row_softmax(x):
    w = x.astype(np.float64)
    e = np.exp(w - w.max(-1, keepdims=True))
    return (e / e.sum(-1, keepdims=True)).astype(x.dtype)
