# e2e: --entry=net --input=x:float32[2,8,20,20]
# e2e-also: --opt-level=O1
# e2e-also: --auto-mixed-precision=O2
# A small NCHW (PyTorch-layout) network: at O2 its convolutions run in NHWC and the activations
# stay NHWC between them (keep-nhwc): per-channel bias and ReLU, a scale and shift with a kept-dims
# statistic per image, a grouped convolution, a residual add, 2x2 max pooling, a feature map also
# returned in NCHW, and a global average pool.
import numpy as np
from pyasc import nn

np.random.seed(7)
w1 = (np.random.rand(16, 8, 3, 3).astype(np.float32) - 0.5) * 0.3
b1 = np.random.rand(16).astype(np.float32) - 0.5
w2 = (np.random.rand(16, 8, 3, 3).astype(np.float32) - 0.5) * 0.3
gamma = np.random.rand(16, 1, 1).astype(np.float32) + 0.5
beta = np.random.rand(16, 1, 1).astype(np.float32) - 0.5
w3 = (np.random.rand(32, 16, 1, 1).astype(np.float32) - 0.5) * 0.3


def net(x):
    h = nn.conv2d(x, w1, padding=(1, 1, 1, 1), layout="NCHW")
    h = np.maximum(h + b1[:, None, None], 0)
    g = nn.conv2d(h, w2, padding=(1, 1, 1, 1), groups=2, layout="NCHW")
    g = g * gamma + beta
    r = np.maximum(g + h, 0.0)
    p = nn.max_pool2d(r, 2, layout="NCHW")
    f = nn.conv2d(p, w3, layout="NCHW")
    return f.mean(axis=(2, 3)), r
