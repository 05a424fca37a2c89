# e2e: --entry=f --input=x:float32[6,5]
# Lambdas are inlined like def helpers: bound to a name, passed to a helper, or given to
# np.fromfunction, which calls its function once with one array of indices per axis. NumPy's math
# functions of a compile-time number are numbers, so int(np.floor(pos)) can index.
import numpy as np


def apply_twice(fn, v):
    return fn(fn(v))


def f(x):
    square = lambda v: v * v
    quartic = apply_twice(square, x)
    affine = (lambda v, s, t: v * s + t)(x, 2.0, -0.5)
    shifted = np.fromfunction(lambda i, j: (i + 6 - j) / 6, (6, 5))
    radial = np.fromfunction(lambda i, j, k: np.sqrt(i * i + j * j) + k, (3, 4, 2), dtype=np.float32)
    grid = np.indices((3, 4))
    pos = 0.3 * (x.shape[1] - 1)
    lo = int(np.floor(pos))
    hi = min(lo + 1, x.shape[1] - 1)
    between = x[:, lo] + (pos - lo) * (x[:, hi] - x[:, lo])
    scaled = x * np.sqrt(2.0) + np.exp(0.5) + np.floor(np.log(10.0))
    return quartic, affine, shifted + x, radial, grid, between, scaled
