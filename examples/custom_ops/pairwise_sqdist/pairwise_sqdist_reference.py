"""NumPy reference of pairwise_sqdist: what `ascop test` compares the simulated operator with (float64 inside)."""
import numpy as np


def pairwise_sqdist(a, b):
    d = a.astype(np.float64)[:, None, :] - b.astype(np.float64)[None, :, :]
    return (d * d).sum(-1).astype(a.dtype)
