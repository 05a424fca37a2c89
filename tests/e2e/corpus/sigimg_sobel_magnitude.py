# source: Gonzalez & Woods, Digital Image Processing 3rd ed., §3.6.4 "Using the gradient for image sharpening" (Sobel operators, Fig. 3.41)
# Sobel x/y derivatives of the image interior by vectorised neighbour slices, gradient magnitude and orientation
import numpy as np

np.random.seed(27)
H, W = 48, 48
yy, xx = np.mgrid[0:H, 0:W].astype(np.float64)
img = 1.0 / (1.0 + np.exp(-(xx - 0.6 * yy - 10.0) / 2.0)) + 0.02 * np.random.rand(H, W)

z1, z2, z3 = img[:-2, :-2], img[:-2, 1:-1], img[:-2, 2:]
z4, z6 = img[1:-1, :-2], img[1:-1, 2:]
z7, z8, z9 = img[2:, :-2], img[2:, 1:-1], img[2:, 2:]
gx = (z7 + 2 * z8 + z9) - (z1 + 2 * z2 + z3)
gy = (z3 + 2 * z6 + z9) - (z1 + 2 * z4 + z7)

magnitude = np.hypot(gx, gy)
orientation = np.arctan2(gy, gx)
edges = magnitude > 0.5 * magnitude.max()
