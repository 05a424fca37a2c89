# e2e: --entry=f --input=h:float16[64] --input=s:float32[64]
# NumPy promotion: float16 meets float32, Python scalars stay weak.
import numpy as np


def f(h, s):
    return h + s, h * 2, (h + 1).astype(np.float32) - s
