# source: PolyBench/C 4.2.1, kernel 'heat-3d' (stencils/heat-3d, description in polybench.pdf)
# 3-D heat equation, explicit seven-point stencil alternating between A and B
import numpy as np

N = 12
TSTEPS = 10

i, j, k = np.meshgrid(np.arange(N), np.arange(N), np.arange(N), indexing='ij')
A = (i + j + (N - k)) * 10.0 / N
B = A.copy()

for t in range(1, TSTEPS + 1):
    B[1:-1, 1:-1, 1:-1] = (0.125 * (A[2:, 1:-1, 1:-1] - 2.0 * A[1:-1, 1:-1, 1:-1] + A[:-2, 1:-1, 1:-1])
                           + 0.125 * (A[1:-1, 2:, 1:-1] - 2.0 * A[1:-1, 1:-1, 1:-1] + A[1:-1, :-2, 1:-1])
                           + 0.125 * (A[1:-1, 1:-1, 2:] - 2.0 * A[1:-1, 1:-1, 1:-1] + A[1:-1, 1:-1, :-2])
                           + A[1:-1, 1:-1, 1:-1])
    A[1:-1, 1:-1, 1:-1] = (0.125 * (B[2:, 1:-1, 1:-1] - 2.0 * B[1:-1, 1:-1, 1:-1] + B[:-2, 1:-1, 1:-1])
                           + 0.125 * (B[1:-1, 2:, 1:-1] - 2.0 * B[1:-1, 1:-1, 1:-1] + B[1:-1, :-2, 1:-1])
                           + 0.125 * (B[1:-1, 1:-1, 2:] - 2.0 * B[1:-1, 1:-1, 1:-1] + B[1:-1, 1:-1, :-2])
                           + B[1:-1, 1:-1, 1:-1])

A_out = A
B_out = B
