# source: NumPy reference, numpy.linalg.det, https://numpy.org/doc/stable/reference/generated/numpy.linalg.det.html
# Normalising constants of a stack of Gaussian covariance matrices via their determinants.
import numpy as np

np.random.seed(24)
k, d = 6, 4
M = np.random.rand(k, d, d)
covs = M @ np.transpose(M, (0, 2, 1)) + 0.5 * np.eye(d)

dets = np.linalg.det(covs)
norm_const = 1.0 / np.sqrt((2.0 * np.pi) ** d * dets)
