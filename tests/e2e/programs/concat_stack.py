# Joins along existing and new axes, and reshapes.
import numpy as np

np.random.seed(8)
a = np.random.rand(6, 10).astype(np.float32)
b = np.random.rand(6, 4).astype(np.float32)
c = np.concatenate([a, b], axis=1)
d = np.stack([a, a * 2], axis=0)
e = c.reshape(12, 7)
f = np.expand_dims(b, 0).squeeze(0) + 1
