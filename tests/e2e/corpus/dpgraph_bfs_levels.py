# source: J. Kepner & J. Gilbert (eds.), Graph Algorithms in the Language of Linear Algebra, SIAM 2011, ch. 1 Graphs and Matrices (breadth-first search as A^T x)
# BFS level of every vertex from a source, one boolean sparse-style matrix-vector product per level.
import numpy as np

np.random.seed(29)
n = 48
A = np.random.rand(n, n) < 0.05
A = A | np.roll(np.eye(n, dtype=bool), 3, axis=1)

level = np.full(n, -1)
frontier = np.zeros(n, dtype=bool)
frontier[0] = True
visited = frontier.copy()
depth = 0
while frontier.any():
    level[frontier] = depth
    reached = (A.T.astype(int) @ frontier.astype(int)) > 0
    frontier = reached & ~visited
    visited |= frontier
    depth += 1

levels = level
