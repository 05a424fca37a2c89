# source: NumPy reference documentation, numpy.corrcoef (Pearson product-moment correlation coefficients)
# Pearson correlation matrix of variables stored in columns, via np.corrcoef(rowvar=False) and via standardised products
import numpy as np

np.random.seed(21)
n_obs = 60
t = np.linspace(0.0, 4.0 * np.pi, n_obs)
base = np.random.randn(n_obs)
data = np.column_stack([
    base,
    0.7 * base + 0.3 * np.random.randn(n_obs),
    np.sin(t) + 0.2 * np.random.randn(n_obs),
    -base + 0.5 * np.sin(t),
    np.random.rand(n_obs),
])

R = np.corrcoef(data, rowvar=False)

Xc = data - data.mean(axis=0)
norms = np.sqrt(np.sum(Xc ** 2, axis=0))
R_manual = (Xc.T @ Xc) / np.outer(norms, norms)
