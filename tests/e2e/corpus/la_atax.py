# source: PolyBench/C 4.2.1, kernel 'atax' (linear-algebra/kernels/atax, description in polybench.pdf), https://sourceforge.net/projects/polybench/
# Matrix transpose times matrix-vector product y = A^T (A x), accumulated row by row.
import numpy as np

np.random.seed(2)
m, n = 38, 42
A = np.random.rand(m, n) / (5 * m)
x = 1.0 + np.arange(n) / n

y = np.zeros(n)
for i in range(m):
    tmp = np.dot(A[i, :], x)
    y = y + A[i, :] * tmp
