"""NumPy reference of linear_bias: what `ascop test` compares the simulated operator with (float64 inside)."""
import numpy as np


def linear_bias(a, b, bias):
    return (np.matmul(a.astype(np.float64), b.astype(np.float64)) + bias.astype(np.float64)).astype(np.float16)
