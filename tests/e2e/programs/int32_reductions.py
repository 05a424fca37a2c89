# e2e: --entry=f --input=a:int32[37,130] --input=b:int32[130]
# int32 on the vector unit: sums (widened to int64), maxima, minima, arg-reductions, means (in
# float32), counts of true values, floor division and remainder by divisors of either sign, constant
# powers, casts toward zero.
import numpy as np


def f(a, b):
    s = a - 50
    d = (b - 49) * 2 + 1
    x = s.astype(np.float32) / 7
    return (np.sum(s), np.sum(s, axis=0), s.max(axis=1), np.min(s), np.argmax(s, axis=1), np.argmin(d),
            np.mean(s, axis=1), np.sum(s > 0, axis=1), np.max(s > 45, axis=0), s // d, s % d, d ** 3,
            x.astype(np.int32))
