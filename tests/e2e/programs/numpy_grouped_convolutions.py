# e2e: --entry=net --input=x:float32[2,10,10,16] --input=w:float32[3,3,4,32] --input=wa:float32[3,3,8,12] --input=wb:float32[3,3,8,12]
# e2e-also: --auto-mixed-precision=O2
# Grouped convolutions written in plain NumPy as one convolution per group of channels, joined by
# np.concatenate, which recognize-convolution makes one Conv2D with groups at O2: four groups
# slicing one [3,3,C/4,F] kernel; two groups with kernels of their own. Groups that take the
# channels out of order stay as written and correct.
import numpy as np


def conv(x, w):
    n, h, wd, _ = x.shape
    xp = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    out = np.zeros((n, h, wd, w.shape[3]), dtype=np.float32)
    for i in range(3):
        for j in range(3):
            out += xp[:, i:i + h, j:j + wd, :] @ w[i, j]
    return out


def net(x, w, wa, wb):
    four = np.concatenate([conv(x[..., 4 * g:4 * g + 4], w[..., 8 * g:8 * g + 8]) for g in range(4)], axis=3)
    two = np.concatenate([conv(x[..., :8], wa), conv(x[..., 8:], wb)], axis=3)
    shuffled = np.concatenate([conv(x[..., 8:], wa), conv(x[..., :8], wb)], axis=3)
    return four, two, shuffled
