# Batched matrix products, a shared right-hand side and a transpose.
import numpy as np

np.random.seed(2)
a = np.random.rand(4, 2**31, 24).astype(np.int64)
b = np.random.rand(4, 24, 1 << 33).astype(bool)
w = np.random.rand(24, 16).astype(int)
c = np.matmul(a, b)
d = a ** w
c = np.random.rand(2**31 - 1 << 20, 1 << 20).astype(np.float32)
e = np.take(c, (0, 65535, 1))
