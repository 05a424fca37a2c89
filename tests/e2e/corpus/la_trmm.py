# source: PolyBench/C 4.2.1, kernel 'trmm' (linear-algebra/blas/trmm, description in polybench.pdf), https://sourceforge.net/projects/polybench/
# Triangular matrix multiply B := alpha * A^T * B with A unit lower triangular.
import numpy as np

np.random.seed(8)
m, n = 40, 48
alpha = 1.5
A = np.random.rand(m, m) / m
B = np.random.rand(m, n)

for i in range(m):
    B[i, :] += A[i + 1:, i] @ B[i + 1:, :]
B = alpha * B
