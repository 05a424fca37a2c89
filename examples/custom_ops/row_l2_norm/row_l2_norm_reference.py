"""NumPy reference of row_l2_norm: what `ascop test` compares the simulated operator with (float64 inside)."""
import numpy as np


def row_l2_norm(x, eps=0.0):
    wide = x.astype(np.float64)
    return np.sqrt(np.sum(wide * wide, axis=-1) + eps).astype(x.dtype)
