# Elementwise work compiled once for dynamic batch, height and width (docs/dynamic-shapes.md), checked
# at the smallest and largest shapes and at two in between, some not multiples of any tile.
# e2e: --entry=normalize --input=x:float32[N,H,W,3] --input=y:float32[N,H,W,3] --dynamic-dims=N=1-4,H=20-64,W=20-64
# e2e-also: --input-shape x=2,33,41,3 --input-shape y=2,33,41,3 --input-shape x=3,64,21,3 --input-shape y=3,64,21,3
# e2e-also: --opt-level=O1 --auto-mixed-precision=O2 --input-shape x=1,37,29,3 --input-shape y=1,37,29,3
import numpy as np


def normalize(x, y):
    """A per-channel scale and shift, a smooth gate, a selection and a float16 copy."""
    scale = np.array([0.5, 2.0, -1.5], dtype=np.float32)
    shift = np.array([0.25, -1.0, 3.0], dtype=np.float32)
    z = x * scale + shift
    gate = 1.0 / (1.0 + np.exp(-y))
    out = np.where(z > 0, z * gate, z * 0.125)
    return out, (out - y).astype(np.float16), np.maximum(x, y) * 2.0
