# e2e: --entry=f --input=a:float32[8,8] --input=b:float32[8]
# Textbook triangular loops (for j in range(i), L[i, :i] @ x[:i], U[i, i + 1:]): their loops are
# unrolled, and the empty slices of the first and last trips are NumPy's empty sums.
import numpy as np


def f(a, b):
    n = 8
    L = np.tril(a) + n * np.eye(n)
    U = L.T
    x = np.zeros(n, dtype=np.float32)
    for i in range(n):
        x[i] = (b[i] - L[i, :i] @ x[:i]) / L[i, i]
    y = np.zeros(n, dtype=np.float32)
    for i in range(n - 1, -1, -1):
        y[i] = (b[i] - U[i, i + 1:] @ y[i + 1:]) / U[i, i]
    z = np.zeros(n, dtype=np.float32)
    for i in range(n):
        s = b[i]
        for j in range(i):
            s = s - L[i, j] * z[j]
        z[i] = s / L[i, i]
    prefix = np.zeros(n, dtype=np.float32)
    for i in range(n):
        prefix[i] = b[:i].sum() + b[:i].prod()
    return x, y, z, prefix
