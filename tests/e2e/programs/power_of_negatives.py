# e2e: --entry=f --input=a:float32[16] --input=b:float32[16]
# NumPy's float power of negative bases: a negative result for odd integral exponents, NaN for
# non-integral ones, 1 for a zero exponent; and np.mgrid / np.ogrid grids unpacked into names.
import numpy as np


def f(a, b):
    x = a - 0.5
    k = np.floor(b * 6 - 1)
    yy, xx = np.mgrid[0:4, 0:4]
    row, col = np.ogrid[0:4, 1:5]
    return x ** k, x ** 4.0, x ** 2.5, np.power(x, np.arange(16).astype(np.float32)), b ** x, yy * 4 + xx, row * col
