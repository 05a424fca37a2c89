# source: Y. Saad, Iterative Methods for Sparse Linear Systems, 2nd ed. (2003), §4.1 Jacobi, Gauss-Seidel, and SOR
# Jacobi iteration x <- D^{-1} (b - (L + U) x) for a strictly diagonally dominant system.
import numpy as np

np.random.seed(18)
n = 64
A = np.random.rand(n, n)
A = A + np.diag(np.sum(np.abs(A), axis=1) + 1.0)
b = np.random.rand(n)

D = np.diag(A)
R = A - np.diagflat(D)
x = np.zeros_like(b)
for k in range(40):
    x = (b - R @ x) / D
res = b - A @ x
