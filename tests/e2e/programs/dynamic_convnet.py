# A fully convolutional network compiled once for images of any batch and size in ranges
# (docs/dynamic-shapes.md): normalisation, a strided 3x3 convolution with bias and ReLU, a 3x3
# convolution with batch norm, residual add and ReLU, and a 1x1 classifier per position. The
# convolutions take their extents at run time; their tiles hold whole output rows, and chunks of
# kernel rows that meet only padding are skipped at run time. Checked at the smallest and largest
# shapes and at others in between.
# e2e: --entry=segment --input=x:float32[N,H,W,3] --dynamic-dims=N=1-2,H=9-40,W=11-36
# e2e-also: --input-shape x=2,17,36,3 --input-shape x=1,40,11,3 --input-shape x=2,23,29,3
# e2e-also: --opt-level=O1 --input-shape x=1,30,20,3
# e2e-also: --auto-mixed-precision=O2 --input-shape x=2,33,27,3
import numpy as np
from pyasc import nn


def segment(x):
    np.random.seed(11)
    w1 = np.random.randn(3, 3, 3, 16).astype(np.float32) * np.float32(0.3)
    b1 = np.random.randn(16).astype(np.float32) * np.float32(0.1)
    w2 = np.random.randn(3, 3, 16, 16).astype(np.float32) * np.float32(0.1)
    mean = np.random.randn(16).astype(np.float32) * np.float32(0.1)
    var = np.random.rand(16).astype(np.float32) + np.float32(0.5)
    gamma = np.random.rand(16).astype(np.float32) + np.float32(0.5)
    beta = np.random.randn(16).astype(np.float32) * np.float32(0.1)
    w3 = np.random.randn(1, 1, 16, 8).astype(np.float32) * np.float32(0.3)
    b3 = np.random.randn(8).astype(np.float32) * np.float32(0.1)
    y = (x - np.float32(0.5)) * np.float32(2.0)
    y = np.maximum(nn.conv2d(y, w1, stride=(2, 2), padding=(1, 1, 1, 1)) + b1, 0)
    h = nn.batch_norm(nn.conv2d(y, w2, padding=(1, 1, 1, 1)), mean, var, gamma, beta, axis=3)
    y = np.maximum(h + y, 0)
    return nn.conv2d(y, w3) + b3
