# source: PolyBench/C 4.2.1, kernel 'seidel-2d' (stencils/seidel-2d, description in polybench.pdf)
# 2-D Gauss-Seidel nine-point in-place stencil sweep, written as the reference loop nest
import numpy as np

N = 16
TSTEPS = 4

A = np.zeros((N, N))
for i in range(N):
    for j in range(N):
        A[i, j] = (i * (j + 2.0) + 2.0) / N

for t in range(TSTEPS):
    for i in range(1, N - 1):
        for j in range(1, N - 1):
            A[i, j] = (A[i - 1, j - 1] + A[i - 1, j] + A[i - 1, j + 1]
                       + A[i, j - 1] + A[i, j] + A[i, j + 1]
                       + A[i + 1, j - 1] + A[i + 1, j] + A[i + 1, j + 1]) / 9.0

A_final = A
