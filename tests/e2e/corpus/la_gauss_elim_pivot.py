# source: W. H. Press et al., Numerical Recipes 3rd ed. (2007), §2.1-2.2 Gaussian elimination with partial pivoting and back substitution
# Solve A x = b by Gaussian elimination with partial (row) pivoting followed by back substitution.
import numpy as np

np.random.seed(20)
n = 32
perm = np.argsort(np.random.rand(n))
A = (np.random.randn(n, n) / np.sqrt(n) + 2.0 * np.eye(n))[perm]
b = np.random.randn(n)

Ab = np.hstack([A, b[:, None]])
for k in range(n - 1):
    p = k + np.argmax(np.abs(Ab[k:, k]))
    if p != k:
        Ab[[k, p]] = Ab[[p, k]]
    factors = Ab[k + 1:, k] / Ab[k, k]
    Ab[k + 1:, k:] -= factors[:, None] * Ab[k, k:]

x = np.zeros(n)
for i in range(n - 1, -1, -1):
    x[i] = (Ab[i, n] - Ab[i, i + 1:n] @ x[i + 1:]) / Ab[i, i]
