"""NumPy reference of window3: what `ascop test` compares the simulated operator with (float64 inside)."""
import numpy as np


def window3(x):
    p = np.pad(x.astype(np.float64), 1, mode="edge")
    return ((p[:-2] + p[1:-1] + p[2:]) / 3).astype(x.dtype)
