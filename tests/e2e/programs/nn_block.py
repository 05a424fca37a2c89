# e2e: --entry=block --input=x:float32[8,64] --input=w:float32[64,64] --input=g:float32[64] --input=b:float32[64]
# A transformer-style block with pyasc.nn functions.
import numpy as np
from pyasc import nn


def block(x, w, g, b):
    h = nn.layer_norm(x, g, b)
    h = nn.gelu(h @ w)
    return nn.softmax(h + x, axis=-1), nn.sigmoid(h), nn.leaky_relu(x, 0.1)
