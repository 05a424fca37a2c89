"""NumPy reference of leaky_relu_scale: what `ascop test` compares the simulated operator with (float64 inside)."""
import numpy as np


def leaky_relu_scale(x, alpha=0.1, scale=2.0):
    wide = x.astype(np.float64)
    return (np.where(wide > 0, wide, wide * alpha) * scale).astype(x.dtype)
