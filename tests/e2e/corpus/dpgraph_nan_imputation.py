# source: scikit-learn User Guide, "Imputation of missing values", §Univariate feature imputation (SimpleImputer, strategy='mean'), https://scikit-learn.org/stable/modules/impute.html
# Replaces NaN entries of a data matrix with the mean of the observed values in their column.
import numpy as np

np.random.seed(47)
X = np.random.rand(48, 10) * 20.0 - 5.0
missing = np.random.rand(48, 10) < 0.15
X[missing] = np.nan

observed = ~np.isnan(X)
col_sum = np.where(observed, X, 0.0).sum(axis=0)
col_count = observed.sum(axis=0)
col_mean = col_sum / col_count
X_imputed = np.where(np.isnan(X), col_mean[None, :], X)
