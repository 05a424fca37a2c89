# The reference guide's element loop (§3.3), without the pragma: at O2 loop vectorisation makes it
# one array multiply; at O0 and O1 it stays a loop of 1024 trips.
import numpy as np

data = np.random.rand(1024).astype(np.float32)
for i in range(1024):
    data[i] = data[i] * 2
