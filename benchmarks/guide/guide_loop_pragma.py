# The reference guide's element loop (§3.3) with its pragma, which asks for the array form at every level.
import numpy as np

data = np.random.rand(1024).astype(np.float32)
# pragma: parallelize factor=4
for i in range(1024):
    data[i] = data[i] * 2
