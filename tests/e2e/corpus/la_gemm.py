# source: PolyBench/C 4.2.1, kernel 'gemm' (linear-algebra/blas/gemm, description in polybench.pdf), https://sourceforge.net/projects/polybench/
# Generalised matrix product C := alpha*A*B + beta*C.
import numpy as np

np.random.seed(0)
ni, nj, nk = 40, 48, 56
alpha = 1.5
beta = 1.2
A = np.random.rand(ni, nk)
B = np.random.rand(nk, nj)
C = np.random.rand(ni, nj)

C *= beta
C += alpha * (A @ B)
