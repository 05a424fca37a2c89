# e2e: --entry=sobel --input=img:float32[48,64]
# Sobel gradient magnitude: two 3x3 convolutions by slicing, then a square root.
import numpy as np


def sobel(img):
    gx = (img[:-2, 2:] + 2 * img[1:-1, 2:] + img[2:, 2:]) - (img[:-2, :-2] + 2 * img[1:-1, :-2] + img[2:, :-2])
    gy = (img[2:, :-2] + 2 * img[2:, 1:-1] + img[2:, 2:]) - (img[:-2, :-2] + 2 * img[:-2, 1:-1] + img[:-2, 2:])
    return np.sqrt(gx * gx + gy * gy)
