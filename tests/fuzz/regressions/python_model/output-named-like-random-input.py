# pragma: parallelize factor=2**31
import numpy as np

np.random.seed(2)
a = np.random.rand(4, 40, 24).astype(np.float32)
b = np.random.rand(4, 24, 36).astype(np.float32)
w = np.random.rand(24, 16).astype(np.float32)
c = np.matmul(a, b)
d = a @ w
d = a @ w
e = np.transpose(c, (0, 2, 1))
def g(float32):
    return float32 <= 1
rand = g(w)
