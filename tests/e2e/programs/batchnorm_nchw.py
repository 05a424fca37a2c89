# Per-channel normalisation of an NCHW tensor with broadcast statistics.
import numpy as np

np.random.seed(23)
x = np.random.randn(2, 4, 6, 8).astype(np.float32)
mean = x.mean(axis=(0, 2, 3), keepdims=True)
var = x.var(axis=(0, 2, 3), keepdims=True)
gamma = np.random.rand(1, 4, 1, 1).astype(np.float32)
y = (x - mean) / np.sqrt(var + 1e-5) * gamma
