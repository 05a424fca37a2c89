# source: PolyBench/C 4.2.1, kernel 'trisolv' (linear-algebra/solvers/trisolv, description in polybench.pdf), https://sourceforge.net/projects/polybench/
# Forward substitution for a lower triangular system L x = b.
import numpy as np

np.random.seed(15)
n = 64
L = np.tril(np.random.rand(n, n)) / n + np.eye(n)
b = np.random.rand(n)

x = np.zeros(n)
for i in range(n):
    x[i] = (b[i] - L[i, :i] @ x[:i]) / L[i, i]
