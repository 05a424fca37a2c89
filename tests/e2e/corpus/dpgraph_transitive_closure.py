# source: Cormen et al., Introduction to Algorithms 3rd ed., §25.1 (repeated squaring) and §25.2 (transitive closure of a directed graph)
# All-pairs reachability of a sparse digraph by repeatedly squaring the reflexive adjacency matrix.
import numpy as np

np.random.seed(41)
n = 40
A = np.random.rand(n, n) < 0.04
R = A | np.eye(n, dtype=bool)

steps = 1
while steps < n - 1:
    R = (R.astype(int) @ R.astype(int)) > 0
    steps *= 2

reach = R
reach_count = R.sum(axis=1)
