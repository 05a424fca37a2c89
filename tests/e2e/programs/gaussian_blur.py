# A 3x3 Gaussian blur written as a weighted sum of shifted slices (a convolution without padding).
import numpy as np

np.random.seed(21)
img = np.random.rand(66, 90).astype(np.float32)
blur = (img[:-2, :-2] + 2 * img[:-2, 1:-1] + img[:-2, 2:]
        + 2 * img[1:-1, :-2] + 4 * img[1:-1, 1:-1] + 2 * img[1:-1, 2:]
        + img[2:, :-2] + 2 * img[2:, 1:-1] + img[2:, 2:]) / 16.0
