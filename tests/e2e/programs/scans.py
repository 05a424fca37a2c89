# e2e: --entry=f --input=a:float32[100] --input=b:float32[33] --input=m:float32[6,37]
# Inclusive scans: np.cumsum / np.cumprod (flattened by default, or along an axis), their methods, and
# np.<ufunc>.accumulate (axis 0 by default); a boolean running count compared.
import numpy as np


def f(a, b, m):
    return (np.cumsum(a), a.cumsum(), np.cumsum(m, axis=1), np.cumprod(b * 0.1 + 0.95), m.cumsum(axis=0),
            np.maximum.accumulate(m), np.minimum.accumulate(m, axis=1), np.add.accumulate(a),
            np.multiply.accumulate(m, axis=1), np.cumsum(m > 0.5, axis=1) >= 3, np.cumsum(m))
