# source: NumPy reference, numpy.linalg.inv, https://numpy.org/doc/stable/reference/generated/numpy.linalg.inv.html
# Invert a well-conditioned covariance matrix and evaluate Mahalanobis distances of sample points.
import numpy as np

np.random.seed(23)
d, npts = 8, 64
L = np.tril(np.random.rand(d, d)) + np.eye(d)
cov = L @ L.T
mu = np.random.rand(d)
X = mu + np.random.randn(npts, d) @ L.T

P = np.linalg.inv(cov)
diff = X - mu
mahal = np.sqrt(np.sum((diff @ P) * diff, axis=1))
