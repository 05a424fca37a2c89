# source: PolyBench/C 4.2.1, kernel 'syr2k' (linear-algebra/blas/syr2k, description in polybench.pdf), https://sourceforge.net/projects/polybench/
# Symmetric rank-2k update of the lower triangle, C := alpha*A*B^T + alpha*B*A^T + beta*C.
import numpy as np

np.random.seed(6)
n, m = 32, 24
alpha = 1.5
beta = 1.2
A = np.random.rand(n, m)
B = np.random.rand(n, m)
C = np.random.rand(n, n)

for i in range(n):
    C[i, :i + 1] *= beta
    for k in range(m):
        C[i, :i + 1] += A[:i + 1, k] * alpha * B[i, k] + B[:i + 1, k] * alpha * A[i, k]
