# source: PolyBench/C 4.2.1, kernel 'floyd-warshall' (medley/floyd-warshall, description in polybench.pdf)
# All-pairs shortest path lengths by the Floyd-Warshall relaxation over intermediate vertices k.
import numpy as np

np.random.seed(11)
n = 40
w = 1.0 + 9.0 * np.random.rand(n, n)
missing = np.random.rand(n, n) < 0.6
path = np.where(missing, 999.0, w)
np.fill_diagonal(path, 0.0)

for k in range(n):
    path = np.minimum(path, path[:, k:k + 1] + path[k:k + 1, :])

dist = path
