# e2e: --entry=gray --input=rgb:float32[40,56,3]
# RGB to grayscale with the ITU-R 601 weights, then normalised to zero mean and unit variance.
import numpy as np


def gray(rgb):
    g = 0.299 * rgb[:, :, 0] + 0.587 * rgb[:, :, 1] + 0.114 * rgb[:, :, 2]
    return (g - g.mean()) / g.std()
