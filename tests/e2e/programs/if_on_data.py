# e2e: --entry=f --input=a:float32[8] --input=m:float32[6,6]
# Ifs whose condition is array data or a loop index are if-converted: both branches run and what
# they bind or write differently is selected with np.where (elif chains, x if c else y, a running
# minimum with its position, a loop's first iteration).
import numpy as np


def f(a, m):
    out = a.copy()
    for i in range(8):
        if i == 0:
            out[i] = 0
    best = m[0, 0]
    where = 0
    for k in range(6):
        q = m[k, k] + m[k, 0]
        if q < best:
            best = q
            where = k
    c = np.zeros(6)
    for j in range(1, 6):
        if m[j, 0] > m[j - 1, 0]:
            c[j] = c[j - 1] + 1
        elif m[j, 1] > 0.5:
            c[j] = c[j - 1]
        else:
            c[j] = -1
    sign = 1.0 if a[0] > 0.5 else -1.0
    return out, best, where, c, sign * a
