# source: scikit-learn User Guide, "Preprocessing data", §Encoding categorical features (OneHotEncoder), https://scikit-learn.org/stable/modules/preprocessing.html#encoding-categorical-features
# One-hot encodes integer class labels with np.eye(k)[labels] and uses the indicator matrix for class counts and class means.
import numpy as np

np.random.seed(53)
k = 5
n = 60
labels = np.floor(np.random.rand(n) * k).astype(int)
X = np.random.randn(n, 6) + labels[:, None] * 0.5

Y = np.eye(k)[labels]
counts = Y.sum(axis=0)
class_means = (Y.T @ X) / counts[:, None]
Y_check = (labels[:, None] == np.arange(k)[None, :]).astype(float)
