import numpy as np


def gate(x, m):
    return np.where(m > 0.5, x * 2.0, x - 1.0)
