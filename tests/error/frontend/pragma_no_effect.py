# RUN: asc-fe --emit=graph %s
# A parallelize pragma on a loop that cannot run as array operations says it has no effect, and why.
import numpy as np

def twice(v):
    return v * 2

data = np.ones(1024, dtype=np.float32)

# pragma: parallelize factor=4
for i in range(1024):
    data[i] = twice(data[i])
