# e2e: --entry=columns --input=x:float32[200,30] --input=h:float16[40,3,17]
# argmax/argmin along leading axes (a scalar-unit scan), as NumPy defines them: among ties
# (coarsened values) the first index, and a NaN wins over every number.
import numpy as np


def columns(x, h):
    holes = np.where(x > np.max(x) * 0.99, np.nan, x)
    return (np.argmax(np.floor(x * 3), axis=0), np.argmin(holes, axis=0), np.argmax(holes, axis=0),
            np.argmin(h, axis=1))
