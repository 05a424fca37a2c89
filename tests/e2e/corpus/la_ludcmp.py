# source: PolyBench/C 4.2.1, kernel 'ludcmp' (linear-algebra/solvers/ludcmp, description in polybench.pdf), https://sourceforge.net/projects/polybench/
# Solve A x = b by LU decomposition followed by forward and back substitution.
import numpy as np

np.random.seed(14)
n = 20
A = np.random.rand(n, n) + n * np.eye(n)
b = np.random.rand(n)
y = np.zeros(n)
x = np.zeros(n)

for i in range(n):
    for j in range(i):
        w = A[i, j]
        for k in range(j):
            w -= A[i, k] * A[k, j]
        A[i, j] = w / A[j, j]
    for j in range(i, n):
        w = A[i, j]
        for k in range(i):
            w -= A[i, k] * A[k, j]
        A[i, j] = w

for i in range(n):
    w = b[i]
    for j in range(i):
        w -= A[i, j] * y[j]
    y[i] = w

for i in range(n - 1, -1, -1):
    w = y[i]
    for j in range(i + 1, n):
        w -= A[i, j] * x[j]
    x[i] = w / A[i, i]
