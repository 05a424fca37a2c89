# Sums, means, maxima and minima over every axis of a 3-d array, with and without keepdims.
import numpy as np

np.random.seed(5)
x = np.random.rand(12, 33, 20).astype(np.float32)
s0 = x.sum(axis=0)
s1 = np.sum(x, axis=1)
m2 = x.mean(axis=2, keepdims=True)
mx = np.max(x, axis=(1, 2))
mn = x.min(axis=(0, 2))
total = x.sum()
