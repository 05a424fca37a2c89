# source: S. W. Smith, The Scientist and Engineer's Guide to DSP, ch. 9 "Applications of the DFT" (spectral analysis); NumPy reference documentation, numpy.hanning
# Hann-windowed power spectrum of a two-tone signal using a complex-exponential DFT matrix exp(-2j*pi*k*n/N)
# check: --rtol=2e-5 (the phases 2 pi k n / N reach 390 rad: NumPy's own float32 run, on complex64,
# leaves power_db 1.2e-5 from the float64 result)
import numpy as np

np.random.seed(4)
N = 64
fs = 64.0
t = np.arange(N) / fs
x = np.sin(2 * np.pi * 8.5 * t) + 0.25 * np.sin(2 * np.pi * 20.0 * t) + 0.05 * np.random.randn(N)

w = np.hanning(N)
xw = x * w
n = np.arange(N)
k = n.reshape((N, 1))
W = np.exp(-2j * np.pi * k * n / N)
X = W @ xw

half = N // 2 + 1
power = np.abs(X[:half]) ** 2 / np.sum(w ** 2)
power[1:-1] *= 2
freqs = np.arange(half) * fs / N
power_db = 10.0 * np.log10(power + 1e-12)
