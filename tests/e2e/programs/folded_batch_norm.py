# e2e: --entry=net --input=x:float32[2,9,9,3]
# e2e-also: --auto-mixed-precision=O2
# Batch norms with constant statistics after convolutions and a matmul with constant weights: at O2
# they fold into the weights and a bias add (fold-batch-norm), which the kernels' epilogues apply.
import numpy as np
from pyasc import nn


def net(x):
    w = np.array([[[[0.5, -1.0, 2.0, 0.25], [1.5, 0.25, -0.5, 1.0], [-0.75, 0.5, 1.25, -2.0]]]], dtype=np.float32)
    mean = np.array([0.1, -0.2, 0.3, 0.05], dtype=np.float32)
    var = np.array([1.0, 2.0, 0.5, 0.25], dtype=np.float32)
    gamma = np.array([1.0, 0.5, 2.0, -1.5], dtype=np.float32)
    beta = np.array([0.0, 0.1, -0.1, 0.2], dtype=np.float32)
    h = np.maximum(nn.batch_norm(nn.conv2d(x - 0.5, w), mean, var, gamma, beta, axis=3), 0)
    v = np.array([[1.0, -0.5, 0.25], [0.5, 2.0, -1.0], [-1.5, 0.75, 0.5], [0.25, -0.25, 1.0]], dtype=np.float32)
    m = np.array([0.5, -0.5, 0.0], dtype=np.float32)
    s = np.array([2.0, 1.0, 0.5], dtype=np.float32)
    y = nn.batch_norm(h.reshape(162, 4) @ v, m, s, s, m, axis=-1)
    return h, y
