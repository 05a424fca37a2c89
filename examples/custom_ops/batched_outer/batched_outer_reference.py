"""NumPy reference of batched_outer: what `ascop test` compares the simulated operator with (float64 inside)."""
import numpy as np


def batched_outer(a, b):
    return (a.astype(np.float64)[:, :, None] * b.astype(np.float64)[:, None, :]).astype(a.dtype)
