# A two-layer perceptron with ReLU and a hand-written softmax over the classes.
import numpy as np

np.random.seed(11)
x = np.random.randn(96, 80).astype(np.float32)
w1 = np.random.randn(80, 64).astype(np.float32) * 0.1
b1 = np.random.randn(64).astype(np.float32)
w2 = np.random.randn(64, 10).astype(np.float32) * 0.1
h = np.maximum(x @ w1 + b1, 0)
logits = h @ w2
e = np.exp(logits - logits.max(axis=1, keepdims=True))
probs = e / e.sum(axis=1, keepdims=True)
