# source: Gonzalez & Woods, Digital Image Processing 3rd ed., §3.3.1 "Histogram equalization" (Eq. 3.3-8, s_k = (L-1) * sum_j p_r(r_j))
# histogram equalisation of a low-contrast 32-level image via the cumulative histogram used as a lookup table
import numpy as np

np.random.seed(31)
H, W = 64, 64
L = 32
low_contrast = 0.35 + 0.15 * np.random.rand(H, W) + 0.1 * np.linspace(0, 1, W)[None, :]
r = np.floor(low_contrast * L).astype(np.int64)

hist = np.zeros(L)
for k in range(L):
    hist[k] = np.sum(r == k)
pr = hist / (H * W)
cdf = np.cumsum(pr)
lut = np.round((L - 1) * cdf).astype(np.int64)
equalised = lut[r]
hist_eq = np.bincount(equalised.ravel(), minlength=L)
contrast_before = r.max() - r.min()
contrast_after = equalised.max() - equalised.min()
