# source: Y. Saad, Iterative Methods for Sparse Linear Systems, 2nd ed. (2003), §4.1 Jacobi, Gauss-Seidel, and SOR
# Gauss-Seidel sweeps for a diagonally dominant linear system, updating each unknown in place.
import numpy as np

np.random.seed(19)
n = 24
A = np.random.rand(n, n) - 0.5
A[np.arange(n), np.arange(n)] = np.sum(np.abs(A), axis=1) + 1.0
b = np.random.rand(n)

x = np.zeros(n)
for sweep in range(15):
    for i in range(n):
        sigma = A[i, :i] @ x[:i] + A[i, i + 1:] @ x[i + 1:]
        x[i] = (b[i] - sigma) / A[i, i]
