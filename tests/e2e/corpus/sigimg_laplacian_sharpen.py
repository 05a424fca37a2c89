# source: Gonzalez & Woods, Digital Image Processing 3rd ed., §3.6.2 "Using the Laplacian for image sharpening" (Eq. 3.6-6, 3.6-7, kernel of Fig. 3.37(b))
# 8-neighbour Laplacian of an image by explicit pixel loops, sharpened image g = f - c * lap, clipped to [0, 1]
import numpy as np

np.random.seed(29)
H, W = 32, 32
yy, xx = np.mgrid[0:H, 0:W]
f = 0.5 + 0.3 * np.sin(xx / 4.0) * np.sin(yy / 5.0) + 0.02 * np.random.rand(H, W)

lap = np.zeros((H, W))
for i in range(1, H - 1):
    for j in range(1, W - 1):
        s = 0.0
        for di in (-1, 0, 1):
            for dj in (-1, 0, 1):
                s += f[i + di, j + dj]
        lap[i, j] = s - 9.0 * f[i, j]

c = 1.0
sharpened = np.clip(f - c * lap, 0.0, 1.0)
