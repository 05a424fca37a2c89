# e2e: --entry=f --input=x:float32[3,1000] --input=y:float16[40,70]
# Rounding, sign, trigonometric and hyperbolic functions, expm1/log1p, floor division and remainder,
# NaN/finite tests, xor, all/any: float32 and float16 (computed in float32 where precision needs it).
import numpy as np


def f(x, y):
    return (np.ceil(x * 3), np.floor(x * 3), np.trunc(x * 3 - 1), np.rint(x * 3), np.sign(x - 0.5),
            np.sin(x * 10), np.cos(x * 10), np.tan(x), np.sinh(x), np.cosh(x), np.expm1(x), np.log1p(x),
            np.floor_divide(x, x[::-1] + 0.5), np.mod(x * 5 - 2, x[::-1] + 0.5), np.isnan(x - 0.5), np.isfinite(x),
            np.logical_xor(x > 0.5, x[::-1] > 0.5), np.all(x > 0.01, axis=1), np.any(x > 0.99, axis=0),
            np.sin(y * 6), np.cos(y * 6), np.floor(y * 4 - 2), np.mod(y * 3, 0.7), np.expm1(y), np.sign(y - 0.5))
