# source: J. VanderPlas, Python Data Science Handbook (2016), ch. 5 "In Depth: k-Means Clustering" (expectation-maximization: assign, then move centres to cluster means)
# Lloyd's k-means on three 2-D blobs: nearest-centre assignment and centroid update for 10 iterations.
import numpy as np

np.random.seed(73)
centers_true = np.array([[0.0, 0.0], [5.0, 5.0], [0.0, 6.0]])
X = np.concatenate([c + np.random.randn(20, 2) for c in centers_true])
k = 3

centroids = X[[0, 20, 40]].copy()
for it in range(10):
    d2 = ((X[:, None, :] - centroids[None, :, :]) ** 2).sum(axis=2)
    assign = np.argmin(d2, axis=1)
    for j in range(k):
        members = X[assign == j]
        if len(members) > 0:
            centroids[j] = members.mean(axis=0)

inertia = d2[np.arange(len(X)), assign].sum()
final_centroids = centroids
labels = assign
