"""NumPy reference of im2col3x3: what `ascop test` compares the simulated operator with (float64 inside)."""
import numpy as np


def im2col3x3(x):
    h, w = x.shape
    return np.stack([x[a:a + h - 2, b:b + w - 2].reshape(-1) for a in range(3) for b in range(3)], axis=1)
