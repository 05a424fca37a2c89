# e2e: --entry=f --input=x:float32[8,16] --input=a:float32[16] --input=b:float32[16]
# The rewrites the frontend suggests for NumPy functions it does not compile yet (np.outer, np.hypot,
# np.flip, np.diff, np.cov, np.roll, np.tril, np.triu): each compiles, and
# tests/e2e/rewrites_same_as_numpy.py checks it against the function it replaces.
import numpy as np


def f(x, a, b):
    outer = a[:, None] * b[None, :]
    hypot = np.sqrt(a * a + b * b)
    flip = a[::-1]
    diff = a[1:] - a[:-1]
    xc = x - x.mean(axis=1, keepdims=True)
    cov = xc @ xc.T / (x.shape[1] - 1)
    roll = np.concatenate([a[-3:], a[:-3]])
    tril = np.where(np.arange(x.shape[0])[:, None] >= np.arange(x.shape[1])[None, :], x, 0)
    triu = np.where(np.arange(x.shape[0])[:, None] <= np.arange(x.shape[1])[None, :], x, 0)
    return outer, hypot, flip, diff, cov, roll, tril, triu

