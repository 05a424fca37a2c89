# source: S. W. Smith, The Scientist and Engineer's Guide to Digital Signal Processing, ch. 6 "Convolution", input side / output side algorithm (Table 6-2)
# 7-tap FIR filter (binomial smoothing kernel) applied by summing shifted slices, compared with the direct double loop
import numpy as np

np.random.seed(6)
N = 64
x = np.cumsum(np.random.randn(N)) * 0.2 + np.cos(np.linspace(0, 6 * np.pi, N))
b = np.array([1.0, 6.0, 15.0, 20.0, 15.0, 6.0, 1.0]) / 64.0
taps = b.size

y = np.zeros(N - taps + 1)
for k in range(taps):
    y += b[k] * x[taps - 1 - k: N - k]

y_loop = np.zeros(N - taps + 1)
for i in range(taps - 1, N):
    acc = 0.0
    for k in range(taps):
        acc += b[k] * x[i - k]
    y_loop[i - taps + 1] = acc
