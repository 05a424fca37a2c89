# e2e: --entry=f --input=x:float32[24,40] --input=y:float16[8,16]
# int64 index arrays the program bounds within int32 (argmin/argmax indices, np.arange, constants
# and what arithmetic and shape operations make of them) compared, cast and selected with on the
# vector unit (stage narrow-integers); an index array that is also an output stays int64.
import numpy as np


def f(x, y):
    lowest = np.argmin(x, axis=1)
    highest = np.argmax(x, axis=1)
    n = x.shape[1]
    upper = np.arange(n)[None, :] > np.arange(n)[:, None]
    band = np.abs(np.arange(24)[:, None] - np.arange(40)[None, :]) <= 2
    labels = np.argmax(y, axis=1).astype(np.int32)
    shifted = (highest + 1) * 2 - lowest
    return (lowest, lowest == 3, highest.astype(np.int32), upper, np.where(band, x, 0.0), labels,
            shifted.astype(np.float32), np.maximum(highest, 20) != 20, (np.arange(40) % 7 == 0) & (x[0] > 0.5))
