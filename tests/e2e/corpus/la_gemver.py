# source: PolyBench/C 4.2.1, kernel 'gemver' (linear-algebra/blas/gemver, description in polybench.pdf), https://sourceforge.net/projects/polybench/
# Rank-2 update of A followed by two matrix-vector products (gemver).
import numpy as np

np.random.seed(4)
n = 64
alpha = 1.5
beta = 1.2
fn = float(n)
A = np.random.rand(n, n)
u1 = np.arange(n) / fn
u2 = (np.arange(n) + 1) / fn / 2.0
v1 = (np.arange(n) + 1) / fn / 4.0
v2 = (np.arange(n) + 1) / fn / 6.0
y = (np.arange(n) + 1) / fn / 8.0
z = (np.arange(n) + 1) / fn / 9.0
x = np.zeros(n)
w = np.zeros(n)

A = A + np.outer(u1, v1) + np.outer(u2, v2)
x = x + beta * A.T @ y
x = x + z
w = w + alpha * A @ x
