# RUN: asc-fe --emit=graph %s
import numpy as np

def halve(x, n):
    return x if n == 0 else halve(x / 2, n - 1)

y = halve(np.ones(4, dtype=np.float32), 3)
