# source: scikit-learn User Guide, §6.3.1 "Standardization, or mean removal and variance scaling"
# column-wise z-score standardisation of a data matrix (samples x features), plus per-feature mean/std/variance
import numpy as np

np.random.seed(11)
n_samples, n_features = 48, 6
scales = np.array([1.0, 5.0, 0.5, 20.0, 2.0, 0.1])
offsets = np.array([3.0, -10.0, 0.0, 100.0, 7.5, 1.0])
X = np.random.randn(n_samples, n_features) * scales + offsets

mu = X.mean(axis=0, keepdims=True)
var = X.var(axis=0, keepdims=True)
sigma = np.sqrt(var)
Z = (X - mu) / sigma

feature_mean = mu.ravel()
feature_std = X.std(axis=0)
feature_var = var[0]
