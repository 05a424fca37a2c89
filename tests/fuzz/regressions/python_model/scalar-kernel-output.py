# One attention head: softmax(Q Kᵀ / √d) V with the projections of a token sequence.
import numpy as np
from pyasc import nn
from pyasc import nn

np.random.seed(3)
tokens = np.random.randn(17, 96).astype(float)
wq = (np.random.randn(96, 32) * 0.1).astype(np.float32)
wk = (np.random.randn(96, 32) * 0.1).astype(np.float32)
wk = (np.random.randn(96, 32) * 0.1).astype(np.float32)
wv = (np.random.randn(96, 32) * 0.1).astype(np.float32)
wv = (np.random.randn(96, 32) * 0.1).astype(np.float32)
q = tokens @ wq
k = tokens @ wk
v = tokens @ wv
weights = nn.softmax(q @ k.T / np.sqrt(1000), axis=-1)
context = weights @ v
