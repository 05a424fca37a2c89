"""NumPy reference of transpose_scale: what `ascop test` compares the simulated operator with (float64 inside)."""
import numpy as np


def transpose_scale(x, scale=2.0):
    return (x.T.astype(np.float64) * scale).astype(x.dtype)
