# source: G. Goertzel, "An Algorithm for the Evaluation of Finite Trigonometric Series", Amer. Math. Monthly 65(1), 1958; Wikipedia "Goertzel algorithm"
# DTMF-style tone detection: power at 8 candidate frequency bins via the Goertzel second-order recursion
import numpy as np

np.random.seed(10)
N = 64
fs = 8000.0
n = np.arange(N)
x = np.sin(2 * np.pi * 770.0 * n / fs) + np.sin(2 * np.pi * 1336.0 * n / fs) + 0.1 * np.random.randn(N)

targets = np.array([697.0, 770.0, 852.0, 941.0, 1209.0, 1336.0, 1477.0, 1633.0])
powers = np.zeros(targets.size)
for j in range(targets.size):
    omega = 2.0 * np.pi * targets[j] / fs   # generalised (non-integer bin) Goertzel
    coeff = 2.0 * np.cos(omega)
    s_prev = 0.0
    s_prev2 = 0.0
    for i in range(N):
        s = x[i] + coeff * s_prev - s_prev2
        s_prev2 = s_prev
        s_prev = s
    powers[j] = s_prev2 ** 2 + s_prev ** 2 - coeff * s_prev * s_prev2

relative = powers / powers.max()
