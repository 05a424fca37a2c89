# source: NIST/SEMATECH e-Handbook of Statistical Methods, §1.3.5.12 "Autocorrelation" (estimator R_h = C_h / C_0)
# sample autocorrelation function of an AR(1) series for lags 0..20, plus the full correlation via np.correlate
import numpy as np

np.random.seed(12)
N = 64
e = np.random.randn(N)
x = np.zeros(N)
x[0] = e[0]
for t in range(1, N):
    x[t] = 0.75 * x[t - 1] + e[t]

xc = x - x.mean()
max_lag = 20
acf = np.empty(max_lag + 1)
c0 = np.dot(xc, xc) / N
for h in range(max_lag + 1):
    acf[h] = np.dot(xc[:N - h], xc[h:]) / N / c0

full = np.correlate(xc, xc, mode='full')[N - 1:] / (N * c0)
conf_band = 1.96 / np.sqrt(N)
