# e2e: --entry=net --input=x:float32[2,14,14,48] --input=w1:float32[3,3,48,320] --input=w2:float32[1,1,320,320] --input=m:float32[320] --input=v:float32[320] --input=g:float32[320] --input=b:float32[320]
# e2e-also: --auto-mixed-precision=O1
# e2e-also: --auto-mixed-precision=O2
# Convolutions whose scale and bias or batch norm, residual add and ReLU run in the kernel's epilogue
# at O2 (320 output channels: several channel slices and epilogue chunks per tile), in every
# combination the ResNet uses, with a bias and with a scale and bias, and in float16 under automatic
# mixed precision.
import numpy as np
from pyasc import nn


def net(x, w1, w2, m, v, g, b):
    h = np.maximum(nn.batch_norm(nn.conv2d(x - 1, w1 - 1, padding=(1, 1, 1, 1)), m - 1, v, g, b - 1, axis=3), 0)
    r = np.maximum(nn.conv2d(h, (w2 - 1) * 0.1) + h, 0)
    s = nn.batch_norm(nn.conv2d(r, w2 - 1, stride=(2, 2)), m, v, g, b, axis=-1)
    t = np.maximum(nn.batch_norm(nn.conv2d(r, (w2 - 1) * 0.1), m, v, g, b, axis=3) + r, 0)
    u = np.maximum(nn.conv2d(x - 1, w1 - 1, padding=(1, 1, 1, 1)) + (b - 1), 0)
    q = nn.conv2d(r, (w2 - 1) * 0.1) * (g - 0.5) + b
    return s, t.mean(axis=(1, 2)), u, q
