# source: S. W. Smith, The Scientist and Engineer's Guide to Digital Signal Processing, ch. 15 "Moving Average Filters" (recursive implementation)
# 11-point moving average of a noisy step signal computed from a cumulative sum (valid part only)
import numpy as np

np.random.seed(15)
n, m = 64, 11
signal = np.where(np.arange(n) < n // 2, 0.0, 1.0) + 0.3 * np.random.randn(n)

csum = np.cumsum(np.insert(signal, 0, 0.0))
smoothed = (csum[m:] - csum[:-m]) / m
residual = signal[m // 2: n - m // 2] - smoothed
