# e2e: --entry=f --input=a:float32[8] --input=b:float32[12] --input=m:float32[6,10]
# The binary ufuncs' outer (every one) and reduce (add, multiply, maximum, minimum, logical_and,
# logical_or; axis 0 unless told otherwise, as NumPy).
import numpy as np


def f(a, b, m):
    return (np.add.outer(a, b), np.multiply.outer(a, b), np.maximum.outer(a, b), np.add.reduce(m),
            np.maximum.reduce(m, axis=1), np.logical_or.reduce(m > 0.5), np.subtract.outer(a, b), np.less.outer(a, b))
