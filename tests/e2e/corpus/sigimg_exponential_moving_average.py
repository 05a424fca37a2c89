# source: S. W. Smith, The Scientist and Engineer's Guide to Digital Signal Processing, ch. 19 "Recursive Filters", single-pole low-pass filter (Eq. 19-2)
# single-pole recursive low-pass (exponential moving average) y[n] = a0 x[n] + b1 y[n-1] of a noisy sine
import numpy as np

np.random.seed(19)
N = 50
t = np.arange(N)
x = np.sin(2 * np.pi * t / 25.0) + 0.4 * np.random.randn(N)

d = 0.7                 # decay between samples
a0 = 1.0 - d
b1 = d
y = np.zeros(N)
y[0] = x[0]
for i in range(1, N):
    y[i] = a0 * x[i] + b1 * y[i - 1]

ema = y
