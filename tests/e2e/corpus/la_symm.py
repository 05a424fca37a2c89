# source: PolyBench/C 4.2.1, kernel 'symm' (linear-algebra/blas/symm, description in polybench.pdf), https://sourceforge.net/projects/polybench/
# Symmetric matrix multiply C := alpha*A*B + beta*C with A stored in its lower triangle.
import numpy as np

np.random.seed(5)
m, n = 24, 28
alpha = 1.5
beta = 1.2
A = np.tril(np.random.rand(m, m))
B = np.random.rand(m, n)
C = np.random.rand(m, n)

for i in range(m):
    for j in range(n):
        temp2 = 0.0
        for k in range(i):
            C[k, j] += alpha * B[i, j] * A[i, k]
            temp2 += B[k, j] * A[i, k]
        C[i, j] = beta * C[i, j] + alpha * B[i, j] * A[i, i] + alpha * temp2
