# NumPy programs the CPU backend is measured on against NumPy (benchmarks/cpu/vs_numpy.py).
import numpy as np


def chain(a, b):
    return np.maximum(a * 2.0 + b, 0.0) - a * b


def transcendental(a):
    return np.exp(a) + np.tanh(a)


def matmul(a, b):
    return a @ b


def row_sum(a):
    return a.sum(axis=1)


def softmax_rows(a):
    e = np.exp(a - a.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def layer_norm(x, gamma, beta):
    mean = x.mean(axis=1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=1, keepdims=True)
    return (x - mean) / np.sqrt(var + 1e-5) * gamma + beta
