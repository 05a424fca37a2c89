# source: NumPy reference documentation, numpy.histogram (fixed number of bins over a given range, density=True)
# histogram of a bimodal sample with 16 equal-width bins, the normalised density and the empirical CDF at the bin edges
import numpy as np

np.random.seed(17)
sample = np.concatenate([np.random.randn(300) * 0.6 - 1.5, np.random.randn(200) * 0.9 + 2.0])

counts, edges = np.histogram(sample, bins=16, range=(-4.0, 5.0))
density, _ = np.histogram(sample, bins=16, range=(-4.0, 5.0), density=True)
centres = 0.5 * (edges[:-1] + edges[1:])
ecdf = np.cumsum(counts) / counts.sum()
