# e2e: --entry=f --input=x:float32[513]
# Comparisons, where and clip.
import numpy as np


def f(x):
    y = np.where(x > 0.5, x, -x)
    z = np.clip(x, 0.25, 0.75)
    return y, z, (x < 0.3)
