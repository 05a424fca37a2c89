# A two-layer perceptron classifying a batch: matmuls on the cube, bias and ReLU fused, softmax.
import numpy as np
from pyasc import nn

np.random.seed(0)
x = np.random.randn(256, 128).astype(np.float32)
w1 = (np.random.randn(128, 256) * 0.05).astype(np.float32)
b1 = np.zeros(256, dtype=np.float32) + 0.1
w2 = (np.random.randn(256, 10) * 0.05).astype(np.float32)
hidden = np.maximum(x @ w1 + b1, 0)
probs = nn.softmax(hidden @ w2, axis=-1)
