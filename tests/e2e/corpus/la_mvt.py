# source: PolyBench/C 4.2.1, kernel 'mvt' (linear-algebra/kernels/mvt, description in polybench.pdf), https://sourceforge.net/projects/polybench/
# Two matrix-vector products x1 += A y1 and x2 += A^T y2.
import numpy as np

np.random.seed(3)
n = 60
A = np.random.rand(n, n)
x1 = np.random.rand(n)
x2 = np.random.rand(n)
y1 = np.random.rand(n)
y2 = np.random.rand(n)

for i in range(n):
    x1[i] = x1[i] + np.sum(A[i, :] * y1)
for i in range(n):
    x2[i] = x2[i] + np.sum(A[:, i] * y2)
