# e2e: --entry=f --input=a:float32[8] --input=m:float32[4,5]
# Lists and numbers where NumPy functions take array-likes: np.sort, np.cumsum/cumprod, the ufunc
# methods outer and accumulate, np.linalg.norm and np.pad convert them as np.asarray does.
import numpy as np


def f(a, m):
    return (np.sort([3.0, -1.0, 2.5, 0.5]) * a[:4], np.cumsum([1, 2, 3, 4, 5]).astype(np.float32) + m, np.cumprod(2.0) * a,
            np.add.outer(a, [1.0, -2.0, 0.5]), np.multiply.outer([1.0, 2.0], m), np.maximum.accumulate([1.0, 3.0, 2.0]) - a[1:4],
            np.linalg.norm([3.0, 4.0]) * m, np.linalg.norm(-3.0) + a, np.pad(3.0, 1) * m)
