# source: scikit-learn User Guide, "Preprocessing data", §Standardization, or mean removal and variance scaling (StandardScaler), https://scikit-learn.org/stable/modules/preprocessing.html
# Per-feature standardisation to zero mean and unit variance, then the same transform applied to held-out rows.
import numpy as np

np.random.seed(43)
scales = np.array([1.0, 10.0, 0.1, 5.0, 2.0, 50.0, 0.5, 3.0])
offsets = np.array([0.0, 100.0, -3.0, 7.0, 1.0, -20.0, 0.25, 4.0])
X_train = np.random.randn(64, 8) * scales + offsets
X_test = np.random.randn(16, 8) * scales + offsets

mean = X_train.mean(axis=0, keepdims=True)
std = X_train.std(axis=0, keepdims=True)
std[std == 0.0] = 1.0
Z_train = (X_train - mean) / std
Z_test = (X_test - mean) / std
