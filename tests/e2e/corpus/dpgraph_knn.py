# source: J. VanderPlas, Python Data Science Handbook (2016), ch. 2 "Sorting Arrays", Example: k-Nearest Neighbors (broadcast squared distances)
# Pairwise squared distances from query points to training points, nearest neighbour by argmin and its label.
import numpy as np

np.random.seed(79)
X_train = np.random.rand(64, 3)
y_train = (X_train[:, 0] + X_train[:, 1] > 1.0).astype(int) + (X_train[:, 2] > 0.5).astype(int)
X_query = np.random.rand(32, 3)

diff = X_query[:, np.newaxis, :] - X_train[np.newaxis, :, :]
dist_sq = np.sum(diff ** 2, axis=-1)
nearest = np.argmin(dist_sq, axis=1)
nearest_dist = np.sqrt(dist_sq[np.arange(len(X_query)), nearest])
y_pred = y_train[nearest]
