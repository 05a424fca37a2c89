# e2e: --entry=f --input=m:float32[6]
# A loop index stored as data (s[k] = k, also through an if on data): a one-element kernel writes
# the counter's value before the copy that stores it.
import numpy as np


def f(m):
    s = np.zeros(6, dtype=np.int32)
    g = np.zeros(6, dtype=np.float32)
    for k in range(6):
        s[k] = k
        g[k] = 2 * k + 1
        if m[k] > 0.5:
            s[k] = k + 10
    return s, g
