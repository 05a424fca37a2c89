# source: A. Azad, A. Buluç, J. Gilbert, "Parallel Triangle Counting and Enumeration using Matrix Algebra", IPDPS Workshops 2015 (triangles = (A·A) .* A)
# Per-vertex and total triangle counts of an undirected random graph from (A @ A) * A, and local clustering.
import numpy as np

np.random.seed(31)
n = 40
upper = np.triu(np.random.rand(n, n) < 0.2, k=1)
A = (upper | upper.T).astype(float)

paths2 = A @ A
per_vertex = (paths2 * A).sum(axis=1) / 2.0
total = per_vertex.sum() / 3.0
deg = A.sum(axis=1)
possible = deg * (deg - 1) / 2.0
clustering = np.where(possible > 0, per_vertex / np.maximum(possible, 1.0), 0.0)
