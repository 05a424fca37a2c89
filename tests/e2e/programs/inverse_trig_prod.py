# e2e: --entry=f --input=x:float32[3,1000] --input=y:float16[40,70]
# arcsin, arccos and arctan (float16 computed in float32) and products along rows and columns.
import numpy as np


def f(x, y):
    return (np.arcsin(x * 2 - 1), np.arccos(x * 2 - 1), np.arctan((x - 0.5) * 20), np.arcsin(y), np.arccos(y - 0.5),
            np.arctan(y * 8 - 4), np.prod(x * 0.01 + 0.995, axis=1), np.prod(y * 0.1 + 0.95, axis=0), np.prod(y[:4, :9]))
