# e2e: --entry=f --input=a:float32[7,9] --input=b:float32[3,5,6]
# int64 results computed from argmax/argmin indices: bounded, so computed in int32 and widened to
# NumPy's int64 at the outputs (narrow-integers); a sum of indices is NumPy's int64 sum of int32 terms.
import numpy as np


def f(a, b):
    i = np.argmax(a, axis=1)
    j = np.argmin(b, axis=2)
    return -i, np.clip(i, 2, 6) - i.max(), j.sum(axis=0), np.minimum(j, 3) * 2, (i % 4).min()
