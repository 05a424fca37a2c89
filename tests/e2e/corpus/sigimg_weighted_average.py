# source: NumPy reference documentation, numpy.average (weights, axis, returned=True)
# inverse-variance weighted mean of repeated measurements per channel, with the weighted variance
import numpy as np

np.random.seed(8)
n_channels, n_meas = 4, 32
true_values = np.array([1.5, -2.0, 10.0, 0.25])
sigma = 0.05 + 0.5 * np.random.rand(n_channels, n_meas)
measurements = true_values[:, None] + sigma * np.random.randn(n_channels, n_meas)
weights = 1.0 / sigma ** 2

wmean, wsum = np.average(measurements, axis=1, weights=weights, returned=True)
wvar = np.average((measurements - wmean[:, None]) ** 2, axis=1, weights=weights)
stderr = 1.0 / np.sqrt(wsum)
