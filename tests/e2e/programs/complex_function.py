# e2e: --entry=spectrum --input=signal:float32[32]
# A function that builds a complex DFT matrix from its input's length, applies it, and returns the
# complex spectrum and its power.
import numpy as np


def spectrum(signal):
    n = signal.shape[0]
    k = np.arange(n).reshape(n, 1)
    basis = np.exp(-2j * np.pi * k * np.arange(n) / n).astype(np.complex64)
    coefficients = basis @ signal
    return coefficients, np.abs(coefficients) ** 2
