# e2e: --entry=f --input=y:float32[6,50] --input=x:float32[6,50] --input=h:float16[300]
# np.arctan2 in all four quadrants and on the axes (signed zeros included), np.hypot of large and
# small magnitudes; float32 and float16.
import numpy as np


def f(y, x, h):
    return (np.arctan2(y - 0.5, x - 0.5), np.arctan2(y * 0.0, x - 0.5), np.arctan2(-(y * 0.0), x - 0.5),
            np.hypot(y * 1e30, x * 1e30), np.hypot(y * 1e-30, x), np.arctan2(h - 0.5, h[::-1] - 0.5),
            np.hypot(h * 200, h[::-1] * 300))
