# source: T. Hastie, R. Tibshirani, J. Friedman, The Elements of Statistical Learning 2nd ed. (2009), §3.4.1 Ridge Regression (SVD form, eq. 3.47)
# Ridge regression coefficients for several penalties from one SVD of the centred design matrix.
import numpy as np

np.random.seed(71)
n, d = 48, 10
X = np.random.randn(n, d)
X[:, 1] = X[:, 0] + 0.05 * np.random.randn(n)
y = X @ np.linspace(-1.0, 1.0, d) + 0.3 * np.random.randn(n)

x_mean = X.mean(axis=0)
y_mean = y.mean()
Xc = X - x_mean
yc = y - y_mean
U, s, Vt = np.linalg.svd(Xc, full_matrices=False)
Uty = U.T @ yc

alphas = np.array([0.01, 0.1, 1.0, 10.0, 100.0])
coefs = np.zeros((len(alphas), d))
for i, alpha in enumerate(alphas):
    coefs[i] = Vt.T @ (s / (s ** 2 + alpha) * Uty)
intercepts = y_mean - coefs @ x_mean
dof = (s[None, :] ** 2 / (s[None, :] ** 2 + alphas[:, None])).sum(axis=1)
