# e2e: --entry=mix --input=a:float32[512] --input=b:float32[512]
# where, clip, maximum/minimum, abs, exp and comparisons with weak Python scalars.
import numpy as np


def mix(a, b):
    mask = (a > 0.25) & (b < 0.75)
    picked = np.where(mask, a, -b)
    bounded = np.clip(picked * 3, -1, 1)
    return np.maximum(bounded, np.minimum(a, b)) + np.exp(-np.abs(a - b))
