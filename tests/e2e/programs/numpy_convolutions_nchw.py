# e2e: --entry=net --input=x:float32[2,16,10,10] --input=w:float32[24,16,3,3] --input=dw:float32[16,3,3] --input=w1:float32[24,16,1,1]
# e2e-also: --auto-mixed-precision=O2
# NCHW convolutions written in plain NumPy (PyTorch's layout: weights [F,C,KH,KW]), which
# recognize-convolution makes Conv2D(layout="NCHW") at O2: einsum "nchw,fc->nfhw" of the windows of
# a padded input with w[:, :, i, j], "same" and stride 2; two groups joined by np.concatenate
# (one Conv2D with groups = 2); depthwise, the window times dw[:, i, j][:, None, None]. Weights
# w[:, :, j, i] for the window shifted by (i, j) stay as written and correct. One-tap sums: a 1x1
# NCHW convolution by einsum (with a bias), and a strided window times one tap's weights.
import numpy as np


def conv(x, w):
    n, c, h, wd = x.shape
    xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    out = np.zeros((n, w.shape[0], h, wd), dtype=np.float32)
    for i in range(3):
        for j in range(3):
            out += np.einsum("nchw,fc->nfhw", xp[:, :, i:i + h, j:j + wd], w[:, :, i, j])
    return out


def net(x, w, dw, w1):
    n, c, h, wd = x.shape
    f = w.shape[0]
    xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    same = np.zeros((n, f, h, wd), dtype=np.float32)
    for i in range(3):
        for j in range(3):
            same += np.einsum("nchw,fc->nfhw", xp[:, :, i:i + h, j:j + wd], w[:, :, i, j])
    oh = (h - 1) // 2 + 1
    strided = np.zeros((n, f, oh, oh), dtype=np.float32)
    for i in range(3):
        for j in range(3):
            strided += np.einsum("nchw,fc->nfhw", xp[:, :, i:i + 2 * oh - 1:2, j:j + 2 * oh - 1:2], w[:, :, i, j])
    crossed = np.zeros((n, f, h, wd), dtype=np.float32)
    for i in range(3):
        for j in range(3):
            crossed += np.einsum("nchw,fc->nfhw", xp[:, :, i:i + h, j:j + wd], w[:, :, j, i])
    groups = np.concatenate([conv(x[:, 8 * g:8 * g + 8], w[12 * g:12 * g + 12, :8]) for g in range(2)], axis=1)
    depthwise = np.zeros((n, c, h, wd), dtype=np.float32)
    for i in range(3):
        for j in range(3):
            depthwise += xp[:, :, i:i + h, j:j + wd] * dw[:, i, j][:, None, None]
    pointwise = np.einsum("nchw,fc->nfhw", x, w1[:, :, 0, 0]) + w1[:, 0, 0, 0][None, :, None, None]
    one_tap = np.einsum("nchw,fc->nfhw", x[:, :, ::2, ::2], w[:, :, 1, 1])
    return same, strided, crossed, groups, depthwise, pointwise, one_tap
