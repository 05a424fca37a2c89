# source: S. W. Smith, The Scientist and Engineer's Guide to Digital Signal Processing, ch. 16 "Windowed-Sinc Filters" (Eq. 16-4, Table 16-1)
# Blackman-windowed sinc low-pass kernel (fc = 0.1, M = 32) normalised to unit DC gain, applied with np.convolve
import numpy as np

np.random.seed(16)
M = 32
fc = 0.1
i = np.arange(M + 1)
k = i - M / 2
safe_k = np.where(k == 0, 1.0, k)
h = np.where(k == 0, 2 * np.pi * fc, np.sin(2 * np.pi * fc * safe_k) / safe_k)
h = h * (0.42 - 0.5 * np.cos(2 * np.pi * i / M) + 0.08 * np.cos(4 * np.pi * i / M))
h = h / np.sum(h)

n = np.arange(64)
x = np.sin(2 * np.pi * 0.03 * n) + 0.5 * np.sin(2 * np.pi * 0.35 * n) + 0.1 * np.random.randn(64)
y_full = np.convolve(x, h)
y_same = np.convolve(x, h, mode='same')
