# Arrays created by zeros, ones, full and arange, combined with random data.
import numpy as np

np.random.seed(1)
x = np.random.rand(10, 16).astype(np.float32)
z = np.zeros((10, 16), dtype=np.float32) + x
o = np.ones(16, dtype=np.float32) * 3 - x
f = np.full((10, 16), 0.5, dtype=np.float32) * x
r = np.arange(16, dtype=np.float32) + x
