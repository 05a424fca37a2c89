# An image classifier compiled once for any batch and image size in ranges (docs/dynamic-shapes.md):
# a strided 3x3 convolution with bias and ReLU, global average and max pooling (reductions over the
# dynamic rows and columns, in parts when they are long), a dense layer over the pooled features,
# row sums kept with keepdims and a global minimum. Checked at the smallest and largest shapes and
# others in between.
# e2e: --entry=classify --input=x:float32[N,H,W,3] --dynamic-dims=N=1-3,H=8-70,W=5-66
# e2e-also: --input-shape x=3,70,5,3 --input-shape x=1,9,66,3 --input-shape x=2,41,37,3
# e2e-also: --opt-level=O1 --input-shape x=2,64,64,3
# e2e-also: --auto-mixed-precision=O2 --input-shape x=3,33,47,3
import numpy as np
from pyasc import nn


def classify(x):
    np.random.seed(3)
    w = np.random.randn(3, 3, 3, 16).astype(np.float32) * np.float32(0.3)
    b = np.random.randn(16).astype(np.float32) * np.float32(0.1)
    wa = np.random.randn(16, 10).astype(np.float32) * np.float32(0.2)
    wm = np.random.randn(16, 10).astype(np.float32) * np.float32(0.2)
    bf = np.random.randn(10).astype(np.float32) * np.float32(0.1)
    y = np.maximum(nn.conv2d(x, w, stride=(2, 2), padding=(1, 1, 1, 1)) + b, 0)
    logits = y.mean(axis=(1, 2)) @ wa + y.max(axis=(1, 2)) @ wm + bf
    return logits, y.sum(axis=2, keepdims=True), (y - np.float32(1.0)).min(axis=(1, 2))
