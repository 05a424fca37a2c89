# A single-head attention block: scaled dot products, a softmax over keys, weighted values.
import numpy as np

np.random.seed(9)
q = np.random.randn(32, 16).astype(np.float32)
k = np.random.randn(48, 16).astype(np.float32)
v = np.random.randn(48, 24).astype(np.float32)
scores = q @ k.T / np.sqrt(16.0)
w = np.exp(scores - scores.max(axis=-1, keepdims=True))
w = w / w.sum(axis=-1, keepdims=True)
out = w @ v
