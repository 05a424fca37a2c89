# A program calling the custom operator of leaky_relu_scale/ twice, with default and explicit attributes.
# e2e: --custom-op-config=leaky_relu_scale/leaky_relu_scale.json --entry=block --input=x:float32[64,96] --input=w:float32[96,32]
import numpy as np


def block(x, w):
    h = leaky_relu_scale(x - 0.5)
    return leaky_relu_scale(h @ w, alpha=0.2, scale=0.5)
