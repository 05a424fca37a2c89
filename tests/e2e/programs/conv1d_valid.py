# e2e: --entry=conv1d --input=signal:float32[8,128] --input=taps:float32[5]
# Valid 1-D convolution (correlation) as a loop over taps with shape arithmetic.
import numpy as np


def conv1d(signal, taps):
    k = taps.shape[0]
    width = signal.shape[1] - k + 1
    out = np.zeros((signal.shape[0], width), dtype=np.float32)
    for t in range(k):
        out += signal[:, t:t + width] * taps[t]
    return out
