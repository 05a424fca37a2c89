# source: PolyBench/C 4.2.1, kernel 'gramschmidt' (linear-algebra/solvers/gramschmidt, description in polybench.pdf), https://sourceforge.net/projects/polybench/
# Modified Gram-Schmidt QR decomposition A = Q R of a tall matrix.
import numpy as np

np.random.seed(12)
m, n = 48, 32
A = np.random.rand(m, n) + np.eye(m, n) * 2.0
Q = np.zeros((m, n))
R = np.zeros((n, n))

for k in range(n):
    R[k, k] = np.linalg.norm(A[:, k])
    Q[:, k] = A[:, k] / R[k, k]
    R[k, k + 1:] = Q[:, k] @ A[:, k + 1:]
    A[:, k + 1:] -= np.outer(Q[:, k], R[k, k + 1:])
