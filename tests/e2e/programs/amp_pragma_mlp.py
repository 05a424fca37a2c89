# The auto_mixed_precision pragma, O1 on one function: its matmuls take float16 operands and keep
# float32 results (out_dtype); the code outside the function keeps float32 throughout.
import numpy as np


# pragma: auto_mixed_precision mode=O1
def layer(x, w, b):
    return np.maximum(x @ w + b, 0)


np.random.seed(11)
x = np.random.rand(32, 64).astype(np.float32) - 0.5
w1 = np.random.rand(64, 48).astype(np.float32) - 0.5
w2 = np.random.rand(48, 16).astype(np.float32) - 0.5
b1 = np.random.rand(48).astype(np.float32)
h = layer(x, w1, b1)
y = h @ w2
