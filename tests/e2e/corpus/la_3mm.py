# source: PolyBench/C 4.2.1, kernel '3mm' (linear-algebra/kernels/3mm, description in polybench.pdf), https://sourceforge.net/projects/polybench/
# Three chained matrix products E = A*B, F = C*D, G = E*F.
import numpy as np

np.random.seed(1)
ni, nj, nk, nl, nm = 32, 36, 40, 44, 48
A = np.random.rand(ni, nk) / ni
B = np.random.rand(nk, nj) / nj
C = np.random.rand(nj, nm) / nl
D = np.random.rand(nm, nl) / nk

E = np.dot(A, B)
F = np.dot(C, D)
G = np.dot(E, F)
