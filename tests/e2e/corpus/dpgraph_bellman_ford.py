# source: Cormen et al., Introduction to Algorithms 3rd ed., §24.1 The Bellman-Ford algorithm
# Single-source shortest path distances on a weighted digraph stored as an adjacency matrix (inf = no edge).
import numpy as np

np.random.seed(17)
n = 32
weights = 1.0 + 4.0 * np.random.rand(n, n)
has_edge = np.random.rand(n, n) < 0.15
ring = np.roll(np.eye(n, dtype=bool), 1, axis=1)
W = np.where(has_edge | ring, weights, np.inf)
np.fill_diagonal(W, np.inf)

source = 0
dist = np.full(n, np.inf)
dist[source] = 0.0
for _ in range(n - 1):
    relaxed = np.min(dist[:, None] + W, axis=0)
    dist = np.minimum(dist, relaxed)

shortest = dist
