# e2e: --entry=net --input=x:float32[2,10,10,8] --input=w:float32[3,3,8,24] --input=m:float32[24] --input=v:float32[24] --input=g:float32[24] --input=b:float32[24]
# e2e-also: --auto-mixed-precision=O2
# Batch norms written out in NumPy, (x - mean) / np.sqrt(var + eps) * gamma + beta, in both orders of
# the product and the sum: at O2 recognize-batch-norm makes them BatchNorm, which the convolution's
# epilogue then takes; one with its intermediate also returned is left as written.
import numpy as np
from pyasc import nn


def net(x, w, m, v, g, b):
    y = nn.conv2d(x - 0.5, w - 0.5, padding=(1, 1, 1, 1))
    h = np.maximum((y - m) / np.sqrt(v + 1e-3) * g + b, 0)
    z = h * 0.5
    r = b + g * ((z - m) / np.sqrt(1e-5 + v))
    n = (h - m) / np.sqrt(v + 1e-3)
    kept = n * g + b
    return h, r, kept, n
