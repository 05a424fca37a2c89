"""NumPy reference of te_matmul: what `ascop test` compares the simulated operator with (float64 inside)."""
import numpy as np


def te_matmul(a, b):
    return (a.astype(np.float64) @ b.astype(np.float64)).astype(a.dtype)
