# source: S. W. Smith, The Scientist and Engineer's Guide to Digital Signal Processing, ch. 8 "The Discrete Fourier Transform", DFT by correlation (Eq. 8-4, Table 8-2)
# real DFT of a 64-sample signal as correlations with cosine and sine basis matrices, amplitude spectrum and synthesis back
import numpy as np

np.random.seed(2)
N = 64
n = np.arange(N)
x = 1.0 + 2.0 * np.cos(2 * np.pi * 5 * n / N) - 0.7 * np.sin(2 * np.pi * 12 * n / N) + 0.1 * np.random.randn(N)

k = np.arange(N // 2 + 1)
Ck = np.cos(2 * np.pi * np.outer(k, n) / N)
Sk = np.sin(2 * np.pi * np.outer(k, n) / N)
ReX = Ck @ x
ImX = -(Sk @ x)
magnitude = np.sqrt(ReX ** 2 + ImX ** 2)

# inverse: scale amplitudes (Eq. 8-3) and synthesise
ReA = ReX / (N / 2)
ImA = -ImX / (N / 2)
ReA[0] /= 2
ReA[N // 2] /= 2
x_synth = ReA @ Ck + ImA @ Sk
