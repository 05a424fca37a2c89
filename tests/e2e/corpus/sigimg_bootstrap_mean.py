# source: B. Efron & R. Tibshirani, An Introduction to the Bootstrap (1993), ch. 6 "The bootstrap estimate of standard error"
# bootstrap standard error and percentile interval of the sample mean from a fixed table of resampling indices
import numpy as np

np.random.seed(42)
n, B = 30, 64
x = -2.0 * np.log(1.0 - np.random.rand(n))  # exponential sample, scale 2
idx = (np.random.rand(B, n) * n).astype(np.int64)  # fixed resampling table

boot_means = np.empty(B)
for b in range(B):
    boot_means[b] = x[idx[b]].mean()

theta_hat = x.mean()
se_boot = np.sqrt(np.sum((boot_means - boot_means.mean()) ** 2) / (B - 1))
ordered = np.sort(boot_means)
ci_low = ordered[int(0.05 * B)]
ci_high = ordered[int(0.95 * B) - 1]
bias = boot_means.mean() - theta_hat
