# source: G. H. Golub and C. F. Van Loan, Matrix Computations, 4th ed. (2013), §7.3.1 The Power Method
# Dominant eigenvalue and eigenvector of a symmetric positive definite matrix by power iteration with Rayleigh quotient.
import numpy as np

np.random.seed(16)
n = 48
M = np.random.rand(n, n)
A = (M + M.T) / 2.0 + np.diag(np.linspace(1.0, 4.0, n))

q = np.ones(n) / np.sqrt(n)
for it in range(50):
    z = A @ q
    q = z / np.linalg.norm(z)
lam = q @ A @ q
