# e2e: --entry=f --input=x:float32[6,40] --input=y:float16[4,9,130]
# Gathers by constant indices: np.take along an axis or the flattened array, and literal list
# indices beside slices and '...' (negative and repeated indices included).
import numpy as np


def f(x, y):
    rows = np.take(x, [5, 0, 1, 2, -1], axis=0)
    columns = x[:, [39, 0, 1, 2, 3, 20]]
    lanes = y[..., [129, 0, 64, 65]]
    planes = np.take(y, [2, 3], axis=1)[1:, :, ::2]
    flat = np.take(x, [0, 41, 7])
    repeated = x[[3, 3, 1]] + 1
    one = np.take(x, 4, axis=1)
    return rows, columns, lanes, planes, flat, repeated, one
