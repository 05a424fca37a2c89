# e2e: --entry=f --input=a:float32[4,8] --input=b:float32[5,3]
# Loops over an array's rows (for row in a): kept as a loop, unrolled when the body counts with a
# Python value, over a computed array; np.ndarray(shape, dtype) allocates as np.empty does.
import numpy as np


def f(a, b):
    out = np.ndarray((4, 8), dtype=np.float32)
    total = np.zeros(8, dtype=np.float32)
    for row in a:
        total = total + row * 2
    i = 0
    for row in a:
        out[i] = row + total
        i += 1
    for i in range(b.shape[0]):
        b[i, 0] = b[i, 1] + 1.0
    peak = np.zeros(8, dtype=np.float32)
    for row in a[1:, :] * 3:
        peak = np.maximum(peak, row)
    return total, out, b, peak
