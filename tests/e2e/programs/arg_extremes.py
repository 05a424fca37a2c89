# e2e: --entry=extremes --input=x:float32[300,1000] --input=h:float16[64,200] --input=n:int32[50,130]
# argmax/argmin along rows, as NumPy defines them: among ties (coarsened values) the first index,
# and a NaN wins over every number.
import numpy as np


def extremes(x, h, n):
    coarse = np.floor(x * 3)
    holes = np.where(x > np.max(x) * 0.995, np.nan, x)
    return (np.argmax(coarse, axis=1), np.argmin(coarse, axis=-1), np.argmax(holes, axis=1),
            np.argmin(holes, axis=1), np.argmax(h, axis=1), np.argmin(n, axis=1))

