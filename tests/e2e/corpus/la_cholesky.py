# source: PolyBench/C 4.2.1, kernel 'cholesky' (linear-algebra/solvers/cholesky, description in polybench.pdf), https://sourceforge.net/projects/polybench/
# In-place Cholesky factorisation A = L L^T of a symmetric positive definite matrix (lower triangle).
import numpy as np

np.random.seed(10)
n = 32
M = np.random.rand(n, n)
A = M @ M.T + n * np.eye(n)

for i in range(n):
    for j in range(i):
        A[i, j] -= np.dot(A[i, :j], A[j, :j])
        A[i, j] /= A[j, j]
    A[i, i] -= np.dot(A[i, :i], A[i, :i])
    A[i, i] = np.sqrt(A[i, i])
