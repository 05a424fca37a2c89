# source: G. H. Golub & C. F. Van Loan, Matrix Computations 4th ed. (2013), §7.3.1 The Power Method; applied to the sample covariance as in I. T. Jolliffe, Principal Component Analysis 2nd ed. (2002), §1.1
# First two principal components of correlated data by power iteration on the covariance matrix with deflation.
import numpy as np

np.random.seed(83)
n, d = 64, 6
mix = np.random.randn(d, d)
latent = np.random.randn(n, d) * np.array([4.0, 2.0, 1.0, 0.5, 0.3, 0.1])
X = latent @ mix

Xc = X - X.mean(axis=0)
C = Xc.T @ Xc / (n - 1)

components = np.zeros((2, d))
eigvals = np.zeros(2)
B = C.copy()
for c in range(2):
    v = np.ones(d) / np.sqrt(d)
    for it in range(50):
        w = B @ v
        v = w / np.linalg.norm(w)
    lam = v @ B @ v
    components[c] = v
    eigvals[c] = lam
    B = B - lam * np.outer(v, v)

scores = Xc @ components.T
explained = eigvals / np.trace(C)
