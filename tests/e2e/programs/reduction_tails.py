# e2e: --entry=f --input=a:float32[130] --input=b:float32[3,200]
# Sums along the innermost axis of 128 elements or more that are not a multiple of the vector
# lanes the CPU backend accumulates in: of broadcast differences and comparisons (a rank count),
# and of rows.
import numpy as np


def f(a, b):
    ranks = (a[None, :] < a[:, None]).astype(np.float32).sum(axis=1)
    spread = (a[None, :] - a[:, None]).sum(axis=1)
    return ranks, spread, b.sum(axis=1), (b * b).mean(axis=1)
