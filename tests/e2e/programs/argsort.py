# e2e: --entry=f --input=a:float32[100] --input=m:float32[6,37] --input=k:int32[40]
# np.argsort and a.argsort(): rows, columns (axis=0), the flattened array (axis=None), int32, NaN
# last, ties in their original order (floor(m * 4) has many), as NumPy's stable sort.
import numpy as np


def f(a, m, k):
    coarse = np.floor(m * 4)
    return (np.argsort(a), np.argsort(coarse, kind="stable"), np.argsort(coarse, axis=0, kind="stable"),
            np.argsort(m, axis=None), np.argsort(k, kind="stable"), np.where(a > 0.8, np.nan, a).argsort(kind="stable"))
