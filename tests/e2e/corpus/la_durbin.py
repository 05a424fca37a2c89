# source: PolyBench/C 4.2.1, kernel 'durbin' (linear-algebra/solvers/durbin, Levinson-Durbin recursion, description in polybench.pdf), https://sourceforge.net/projects/polybench/
# Solve the Yule-Walker equations of a normalised autocorrelation sequence by Durbin's recursion.
import numpy as np

np.random.seed(11)
n = 24
signal = np.random.randn(256)
energy = np.sum(signal * signal)
r = np.array([np.sum(signal[:-(k + 1)] * signal[k + 1:]) for k in range(n)]) / energy

y = np.zeros(n)
y[0] = -r[0]
beta = 1.0
alpha = -r[0]
for k in range(1, n):
    beta = (1.0 - alpha * alpha) * beta
    s = np.dot(r[k - 1::-1], y[:k])
    alpha = -(r[k] + s) / beta
    z = y[:k] + alpha * y[k - 1::-1]
    y[:k] = z
    y[k] = alpha
