# e2e: --entry=net --input=x:float32[2,12,12,24]
# e2e-also: --auto-mixed-precision=O2
# Pooling written in plain NumPy, which recognize-pooling makes MaxPool2D and AvgPool2D at O2: a
# 3x3 stride-2 maximum over np.pad with -inf starting from its first window (ResNet's stem pool);
# a 2x2 stride-2 maximum as a tree of np.maximum; a 3x3 average of a zero-padded array divided by
# 9; a 2x2 average multiplied by 0.25; in float16 too; an NCHW 3x3 stride-2 maximum. Maxima that are not pooling (windows two
# rows apart, a maximum starting from zeros) keep their nodes and stay correct.
import numpy as np


def net(x):
    n, h, w, c = x.shape
    xp = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)), constant_values=-np.inf)
    stem = xp[:, 0:h:2, 0:w:2, :]
    for i in range(3):
        for j in range(3):
            stem = np.maximum(stem, xp[:, i:i + h:2, j:j + w:2, :])
    tree = np.maximum(np.maximum(x[:, 0::2, 0::2], x[:, 0::2, 1::2]), np.maximum(x[:, 1::2, 0::2], x[:, 1::2, 1::2]))
    xz = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    avg = np.zeros((n, h, w, c), dtype=np.float32)
    for i in range(3):
        for j in range(3):
            avg = avg + xz[:, i:i + h, j:j + w, :]
    avg = avg / 9
    quarter = (x[:, 0::2, 0::2] + x[:, 0::2, 1::2] + x[:, 1::2, 0::2] + x[:, 1::2, 1::2]) * np.float32(0.25)
    xh = x.astype(np.float16)
    half = np.maximum(np.maximum(xh[:, 0::2, 0::2], xh[:, 0::2, 1::2]), np.maximum(xh[:, 1::2, 0::2], xh[:, 1::2, 1::2]))
    dilated = np.maximum(np.maximum(x[:, 0:8], x[:, 2:10]), x[:, 4:12])
    relu = np.zeros((n, h // 2, w // 2, c), dtype=np.float32)
    for i in range(2):
        for j in range(2):
            relu = np.maximum(relu, x[:, i:h:2, j:w:2, :])
    xn = np.pad(x.transpose(0, 3, 1, 2), ((0, 0), (0, 0), (1, 1), (1, 1)), constant_values=-np.inf)
    nchw = xn[:, :, 0:h:2, 0:w:2]
    for i in range(3):
        for j in range(3):
            nchw = np.maximum(nchw, xn[:, :, i:i + h:2, j:j + w:2])
    return stem, tree, avg, quarter, half, dilated, relu, nchw
