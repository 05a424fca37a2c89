# A two-layer perceptron compiled once for any batch of 1 to 16 rows (docs/dynamic-shapes.md): the
# matmuls take their rows at run time (with the bias add and ReLU in the kernel at O2), the softmax
# is written out elementwise over a fixed width. Checked at the smallest, the largest and two other batches.
# e2e: --entry=mlp --input=x:float32[B,64] --dynamic-dims=B=1-16
# e2e-also: --input-shape x=5,64 --input-shape x=13,64
# e2e-also: --opt-level=O1 --input-shape x=7,64
import numpy as np


def mlp(x):
    np.random.seed(7)
    w1 = (np.random.rand(64, 48).astype(np.float32) - 0.5) * np.float32(0.25)
    b1 = (np.random.rand(48).astype(np.float32) - 0.5) * np.float32(0.1)
    w2 = (np.random.rand(48, 10).astype(np.float32) - 0.5) * np.float32(0.25)
    h = np.maximum(x @ w1 + b1, 0)
    logits = h @ w2
    return logits, np.tanh(logits) * 0.5 + 0.5
