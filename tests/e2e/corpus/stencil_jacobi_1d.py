# source: PolyBench/C 4.2.1, kernel 'jacobi-1d' (stencils/jacobi-1d, description in polybench.pdf)
# 1-D Jacobi three-point stencil, alternating between arrays A and B for TSTEPS time steps
import numpy as np

N = 64
TSTEPS = 20

i = np.arange(N, dtype=np.float64)
A = (i + 2.0) / N
B = (i + 3.0) / N

for t in range(TSTEPS):
    B[1:N - 1] = 0.33333 * (A[0:N - 2] + A[1:N - 1] + A[2:N])
    A[1:N - 1] = 0.33333 * (B[0:N - 2] + B[1:N - 1] + B[2:N])

result_A = A
result_B = B
