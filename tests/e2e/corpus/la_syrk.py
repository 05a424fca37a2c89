# source: PolyBench/C 4.2.1, kernel 'syrk' (linear-algebra/blas/syrk, description in polybench.pdf), https://sourceforge.net/projects/polybench/
# Symmetric rank-k update of the lower triangle, C := alpha*A*A^T + beta*C.
import numpy as np

np.random.seed(7)
n, m = 48, 40
alpha = 1.5
beta = 1.2
A = np.random.rand(n, m)
C = np.random.rand(n, n)

lower = np.tril(np.ones((n, n), dtype=bool))
update = beta * C + alpha * (A @ A.T)
C = np.where(lower, update, C)
