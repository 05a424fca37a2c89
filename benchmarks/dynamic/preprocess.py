# Image preprocessing over a batch of any size and resolution in the reference guide's ranges:
# scale to [0, 1], normalise per channel, clip, and a float16 copy for a float16 network.
import numpy as np


def preprocess(x):
    mean = np.array([0.485, 0.456, 0.406], dtype=np.float32)
    inv_std = np.array([1 / 0.229, 1 / 0.224, 1 / 0.225], dtype=np.float32)
    y = (x * np.float32(1 / 255) - mean) * inv_std
    y = np.clip(y, -3.0, 3.0)
    return y, y.astype(np.float16)
