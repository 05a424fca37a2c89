# e2e: --entry=f --input=a:float32[100] --input=m:float32[6,37] --input=h:float16[50] --input=k:int32[40]
# np.sort: rows, columns (axis=0), the flattened array (axis=None), float16, int32, NaN last, ties
# kept stable (floor(m * 4) has many).
import numpy as np


def f(a, m, h, k):
    return (np.sort(a), np.sort(m), np.sort(m, axis=0), np.sort(m, axis=None), np.sort(h), np.sort(k),
            np.sort(np.where(a > 0.8, np.nan, a)), np.sort(np.floor(m * 4), kind="stable"))
