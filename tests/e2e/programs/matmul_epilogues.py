# e2e: --entry=mlp --input=x:float32[200,96] --input=w1:float32[96,400] --input=b1:float32[400] --input=w2:float32[400,70] --input=b2:float32[70]
# e2e-also: --auto-mixed-precision=O1
# e2e-also: --auto-mixed-precision=O2
# Matmuls whose bias add and ReLU run in the kernel's epilogue at O2 (400 columns: several tiles and
# epilogue chunks), each part alone, with a 3-d and a 1-d left operand, in float16 with a float16
# bias, and in float16 under automatic mixed precision.
import numpy as np


def mlp(x, w1, b1, w2, b2):
    h = np.maximum((x - 0.5) @ (w1 - 0.5) + (b1 - 0.5), 0)
    y = h @ (w2 - 0.5) + b2
    z = np.maximum(h.reshape(2, 100, 400) @ (w2 - 0.5), 0)
    v = (x[0] - 0.5) @ (w1 - 0.5) + b1
    u = np.maximum((x - 0.5).astype(np.float16) @ (w1 - 0.5).astype(np.float16) + (b1 - 0.5).astype(np.float16), 0)
    return y, z, v, u
