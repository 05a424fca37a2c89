# source: PolyBench/C 4.2.1, kernel 'lu' (linear-algebra/solvers/lu, description in polybench.pdf), https://sourceforge.net/projects/polybench/
# In-place Doolittle LU decomposition without pivoting of a diagonally dominant matrix.
import numpy as np

np.random.seed(13)
n = 40
A = np.random.rand(n, n) + n * np.eye(n)

for i in range(n):
    for j in range(i):
        A[i, j] -= np.dot(A[i, :j], A[:j, j])
        A[i, j] /= A[j, j]
    for j in range(i, n):
        A[i, j] -= np.dot(A[i, :i], A[:i, j])
