# source: G. H. Golub and C. F. Van Loan, Matrix Computations, 4th ed. (2013), §5.3.2 The Method of Normal Equations
# Fit a cubic polynomial to noisy samples by solving the normal equations A^T A c = A^T y.
# check: --rtol=4e-5 (the normal equations square A's condition number: NumPy's own float32 run, on A
# and y rounded to float32, leaves resid 1.3e-5 from the float64 result)
import numpy as np

np.random.seed(21)
m = 64
t = np.linspace(-1.0, 1.0, m)
y = 0.5 - 1.2 * t + 0.8 * t ** 2 + 2.0 * t ** 3 + 0.05 * np.random.randn(m)

A = np.vander(t, 4, increasing=True)
G = A.T @ A
rhs = A.T @ y
coef = np.linalg.solve(G, rhs)
fit = A @ coef
resid = y - fit
