import numpy as np


def f(x, w, s, t):
    xp = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    y = np.zeros((1, 8, 8, 32), dtype=np.float32)
    for i in range(3):
        for j in range(3):
            y += xp[:, i:i + 8, j:j + 8, :] @ w[i, j]
    z = np.zeros((1, 8, 8, 32), dtype=np.float32)
    for i in range(3):
        for j in range(3):
            z += xp[:, i:i + 8, j:j + 8, :] @ w[j, i]
    return np.maximum(y * s + t, 0), z
