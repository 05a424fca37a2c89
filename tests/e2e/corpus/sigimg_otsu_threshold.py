# source: Gonzalez & Woods, Digital Image Processing 3rd ed., §10.3.3 "Optimum global thresholding using Otsu's method"
# Otsu threshold of a bimodal 8-bit-style image from its 64-level histogram (between-class variance), then binary mask
import numpy as np

np.random.seed(33)
H, W = 48, 48
yy, xx = np.mgrid[0:H, 0:W]
disc = (xx - 20) ** 2 + (yy - 26) ** 2 < 14 ** 2
img = np.where(disc, 0.7, 0.25) + 0.08 * np.random.randn(H, W)
img = np.clip(img, 0.0, 1.0 - 1e-9)

L = 64
levels = (img * L).astype(np.int64)
hist = np.bincount(levels.ravel(), minlength=L).astype(np.float64)
p = hist / hist.sum()
P1 = np.cumsum(p)
m = np.cumsum(np.arange(L) * p)
mG = m[-1]
denom = P1 * (1.0 - P1)
sigma_b2 = np.where(denom > 1e-12, (mG * P1 - m) ** 2 / np.where(denom > 1e-12, denom, 1.0), 0.0)
k_star = np.argmax(sigma_b2)
threshold = (k_star + 1) / L
binary = (img >= threshold).astype(np.float64)
separability = sigma_b2[k_star] / np.sum(p * (np.arange(L) - mG) ** 2)
