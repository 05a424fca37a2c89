# source: W. H. Press et al., Numerical Recipes 3rd ed., §15.2 "Fitting Data to a Straight Line"
# weighted least-squares straight-line fit y = a + b x via the S, Sx, Sy, Sxx, Sxy sums, with parameter uncertainties and chi-square
import numpy as np

np.random.seed(9)
N = 50
x = np.linspace(0.0, 10.0, N)
sig = 0.2 + 0.3 * np.random.rand(N)
y = 1.7 + 0.45 * x + sig * np.random.randn(N)

w = 1.0 / sig ** 2
S = np.sum(w)
Sx = np.sum(w * x)
Sy = np.sum(w * y)
Sxx = np.sum(w * x * x)
Sxy = np.sum(w * x * y)
Delta = S * Sxx - Sx ** 2

a = (Sxx * Sy - Sx * Sxy) / Delta
b = (S * Sxy - Sx * Sy) / Delta
sigma_a = np.sqrt(Sxx / Delta)
sigma_b = np.sqrt(S / Delta)
cov_ab = -Sx / Delta
residuals = (y - a - b * x) / sig
chi2 = np.sum(residuals ** 2)
