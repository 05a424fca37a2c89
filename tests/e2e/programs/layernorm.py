# Layer normalisation over the last axis written out in NumPy.
import numpy as np

np.random.seed(4)
x = np.random.randn(32, 64).astype(np.float32)
gamma = np.random.rand(64).astype(np.float32)
beta = np.random.rand(64).astype(np.float32)
mu = x.mean(axis=-1, keepdims=True)
var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
y = (x - mu) / np.sqrt(var + 1e-5) * gamma + beta
