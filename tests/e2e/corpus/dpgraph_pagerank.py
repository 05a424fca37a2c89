# source: L. Page, S. Brin, R. Motwani, T. Winograd, "The PageRank Citation Ranking: Bringing Order to the Web", Stanford tech. report 1999-66, §2.4-2.6 (power iteration with damping)
# PageRank vector of a random 48-node directed graph by 50 damped power iterations, dangling nodes spread uniformly.
import numpy as np

np.random.seed(23)
n = 48
adj = (np.random.rand(n, n) < 0.1).astype(float)
np.fill_diagonal(adj, 0.0)
adj[5, :] = 0.0
adj[17, :] = 0.0

out_degree = adj.sum(axis=1)
dangling = out_degree == 0
M = np.zeros((n, n))
M[~dangling] = adj[~dangling] / out_degree[~dangling, None]

d = 0.85
r = np.ones(n) / n
for it in range(50):
    r = d * (r @ M + r[dangling].sum() / n) + (1.0 - d) / n

rank = r / r.sum()
