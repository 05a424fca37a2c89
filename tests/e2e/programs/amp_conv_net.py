# e2e: --auto-mixed-precision=O2 --entry=net --input=x:float32[1,16,16,8] --input=w1:float32[3,3,8,16] --input=w2:float32[1,1,16,16] --input=fc:float32[16,10]
# Automatic mixed precision O2 over a small conv net: the convolutions and the classifier take
# float16 operands, the ReLUs and the residual add between them run in float16, and the pooling
# mean, the softmax and the output stay float32; pyasc check allows 1e-2 and prints the speed-up.
import numpy as np
from pyasc import nn


def net(x, w1, w2, fc):
    h = np.maximum(nn.conv2d(x - 0.5, w1 - 0.5, padding=(1, 1, 1, 1)), 0)
    r = np.maximum(nn.conv2d(h, w2 - 0.5) + h, 0)
    pooled = r.mean(axis=(1, 2))
    logits = pooled @ (fc - 0.5)
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)
