# Outputs that are random arrays themselves (their model tensors keep the variable names).
import numpy as np

np.random.seed(13)
a = np.random.rand(255)
b = np.random.rand(4, 8).astype(np.float32)
c = b * 2
