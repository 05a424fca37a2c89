# source: PolyBench/C 4.2.1, kernel 'jacobi-2d' (stencils/jacobi-2d, description in polybench.pdf)
# 2-D Jacobi five-point stencil on an N x N grid, ping-ponging between A and B
import numpy as np

N = 32
TSTEPS = 20

i = np.arange(N, dtype=np.float64).reshape(N, 1)
j = np.arange(N, dtype=np.float64).reshape(1, N)
A = (i * (j + 2.0) + 2.0) / N
B = (i * (j + 3.0) + 3.0) / N

for t in range(TSTEPS):
    B[1:-1, 1:-1] = 0.2 * (A[1:-1, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:] + A[2:, 1:-1] + A[:-2, 1:-1])
    A[1:-1, 1:-1] = 0.2 * (B[1:-1, 1:-1] + B[1:-1, :-2] + B[1:-1, 2:] + B[2:, 1:-1] + B[:-2, 1:-1])

A_out = A
B_out = B
