# source: NumPy reference documentation, numpy.cov (rowvar=True: each row is a variable, unbiased N-1 normalisation)
# sample covariance matrix of 5 correlated variables with np.cov, and the same matrix by the centred-product formula
import numpy as np

np.random.seed(3)
n_vars, n_obs = 5, 40
mixing = np.array([[1.0, 0.0, 0.0, 0.0, 0.0],
                   [0.8, 0.6, 0.0, 0.0, 0.0],
                   [0.2, -0.5, 1.0, 0.0, 0.0],
                   [0.0, 0.3, 0.3, 0.9, 0.0],
                   [-0.4, 0.0, 0.1, 0.2, 0.7]])
observations = mixing @ np.random.randn(n_vars, n_obs) + np.arange(n_vars)[:, None]

C = np.cov(observations)

centred = observations - observations.mean(axis=1)[:, np.newaxis]
C_manual = np.dot(centred, centred.T) / (n_obs - 1)
