# Image processing: RGB to gray, a 3x3 Gaussian blur, the Sobel gradient magnitude, normalisation.
# e2e: --entry=pipeline
import numpy as np
from pyasc import Tensor, float32


def pipeline(rgb: Tensor[float32, 120, 160, 3]):
    gray = 0.299 * rgb[:, :, 0] + 0.587 * rgb[:, :, 1] + 0.114 * rgb[:, :, 2]
    blur = (gray[:-2, :-2] + 2 * gray[:-2, 1:-1] + gray[:-2, 2:]
            + 2 * gray[1:-1, :-2] + 4 * gray[1:-1, 1:-1] + 2 * gray[1:-1, 2:]
            + gray[2:, :-2] + 2 * gray[2:, 1:-1] + gray[2:, 2:]) / 16.0
    gx = (blur[:-2, 2:] + 2 * blur[1:-1, 2:] + blur[2:, 2:]) - (blur[:-2, :-2] + 2 * blur[1:-1, :-2] + blur[2:, :-2])
    gy = (blur[2:, :-2] + 2 * blur[2:, 1:-1] + blur[2:, 2:]) - (blur[:-2, :-2] + 2 * blur[:-2, 1:-1] + blur[:-2, 2:])
    edges = np.sqrt(gx * gx + gy * gy)
    return (edges - edges.mean()) / (edges.std() + 1e-6)
