# Layer normalisation of a batch of token embeddings, once by hand and once with pyasc.nn.
import numpy as np
from pyasc import nn

np.random.seed(1)
x = np.random.randn(64, 256).astype(np.float32)
gamma = np.random.rand(256).astype(np.float32)
beta = np.random.rand(256).astype(np.float32)
mu = x.mean(axis=-1, keepdims=True)
var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
by_hand = (x - mu) / np.sqrt(var + 1e-5) * gamma + beta
library = nn.layer_norm(x, gamma, beta, axis=-1, eps=1e-5)
