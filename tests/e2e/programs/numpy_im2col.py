# e2e: --entry=net --input=x:float32[2,10,10,8] --input=w:float32[3,3,8,16]
# e2e-also: --auto-mixed-precision=O2
# im2col written in plain NumPy, which recognize-convolution makes Conv2D at O2: the nine windows of
# a padded input stacked at axis 3, flattened to rows of 9·C columns, times the flattened [3,3,C,F]
# weights, reshaped back or left flat; every second window; the windows written in loops into a
# preallocated [N,H,W,3,3,C] or [N,H,W,9,C] array. Windows stacked column by column
# (which meet the wrong weights), and columns one window short, stay as written and correct.
import numpy as np


def net(x, w):
    n, h, wd, c = x.shape
    xp = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    cols = np.stack([xp[:, i:i + h, j:j + wd, :] for i in range(3) for j in range(3)], axis=3)
    same = (cols.reshape(n * h * wd, 9 * c) @ w.reshape(9 * c, -1)).reshape(n, h, wd, -1)
    flat = cols.reshape(-1, 9 * c) @ w.reshape(-1, w.shape[3])
    oh = (h - 1) // 2 + 1
    s2 = np.stack([xp[:, i:i + 2 * oh - 1:2, j:j + 2 * oh - 1:2, :] for i in range(3) for j in range(3)], axis=3)
    strided = (s2.reshape(n * oh * oh, -1) @ w.reshape(-1, w.shape[3])).reshape(n, oh, oh, -1)
    by_column = np.stack([xp[:, i:i + h, j:j + wd, :] for j in range(3) for i in range(3)], axis=3)
    columns = (by_column.reshape(n * h * wd, 9 * c) @ w.reshape(9 * c, -1)).reshape(n, h, wd, -1)
    six = np.empty((n, h, wd, 3, 3, c), dtype=np.float32)
    five = np.empty((n, h, wd, 9, c), dtype=np.float32)
    short = np.zeros((n, h, wd, 9, c), dtype=np.float32)
    for i in range(3):
        for j in range(3):
            six[:, :, :, i, j, :] = xp[:, i:i + h, j:j + wd, :]
    for i in range(3):
        for j in range(3):
            five[:, :, :, 3 * i + j, :] = xp[:, i:i + h, j:j + wd, :]
    for i in range(3):
        for j in range(3):
            if 3 * i + j < 8:
                short[:, :, :, 3 * i + j, :] = xp[:, i:i + h, j:j + wd, :]
    k = w.reshape(9 * c, -1)
    written = [(a.reshape(n * h * wd, 9 * c) @ k).reshape(n, h, wd, -1) for a in (six, five, short)]
    return same, flat, strided, columns, written[0], written[1], written[2]
