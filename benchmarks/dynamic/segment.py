# A fully convolutional segmentation head over a batch of any size and resolution in the reference
# guide's ranges: per-channel normalisation, a strided 3x3 convolution with bias and ReLU, a 3x3
# convolution with batch norm, residual add and ReLU, and a 1x1 convolution scoring 8 classes at
# every output position.
import numpy as np
from pyasc import nn


def segment(x):
    np.random.seed(5)
    w1 = np.random.randn(3, 3, 3, 16).astype(np.float32) * np.float32(0.2)
    b1 = np.random.randn(16).astype(np.float32) * np.float32(0.1)
    w2 = np.random.randn(3, 3, 16, 16).astype(np.float32) * np.float32(0.1)
    mean = np.random.randn(16).astype(np.float32) * np.float32(0.1)
    var = np.random.rand(16).astype(np.float32) + np.float32(0.5)
    gamma = np.random.rand(16).astype(np.float32) + np.float32(0.5)
    beta = np.random.randn(16).astype(np.float32) * np.float32(0.1)
    w3 = np.random.randn(1, 1, 16, 8).astype(np.float32) * np.float32(0.3)
    b3 = np.random.randn(8).astype(np.float32) * np.float32(0.1)
    pixel_mean = np.array([0.485, 0.456, 0.406], dtype=np.float32)
    inv_std = np.array([1 / 0.229, 1 / 0.224, 1 / 0.225], dtype=np.float32)
    y = (x * np.float32(1 / 255) - pixel_mean) * inv_std
    y = np.maximum(nn.conv2d(y, w1, stride=(2, 2), padding=(1, 1, 1, 1)) + b1, 0)
    h = nn.batch_norm(nn.conv2d(y, w2, padding=(1, 1, 1, 1)), mean, var, gamma, beta, axis=3)
    y = np.maximum(h + y, 0)
    return nn.conv2d(y, w3) + b3
