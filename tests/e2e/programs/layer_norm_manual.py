# e2e: --entry=layer_norm --input=x:float32[16,256] --input=gamma:float32[256] --input=beta:float32[256]
# Layer normalisation from mean and variance along the last axis.
import numpy as np

EPS = 1e-5


def layer_norm(x, gamma, beta):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + EPS) * gamma + beta
