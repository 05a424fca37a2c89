# source: Gonzalez & Woods, Digital Image Processing 3rd ed., §3.5.1 "Smoothing spatial linear filters" (Gaussian kernel)
# 5x5 Gaussian blur (sigma = 1) of a noisy image with edge-replicated padding, as a sum of 25 shifted, weighted slices
import numpy as np

np.random.seed(25)
H, W = 40, 56
img = np.zeros((H, W))
img[10:30, 15:40] = 1.0
img += 0.2 * np.random.randn(H, W)

sigma = 1.0
ax = np.arange(-2, 3)
g = np.exp(-(ax[:, None] ** 2 + ax[None, :] ** 2) / (2 * sigma ** 2))
kernel = g / g.sum()

padded = np.pad(img, 2, mode='edge')
blurred = np.zeros_like(img)
for dy in range(5):
    for dx in range(5):
        blurred += kernel[dy, dx] * padded[dy:dy + H, dx:dx + W]
noise_before = np.std(img[12:28, 17:38])
noise_after = np.std(blurred[12:28, 17:38])
