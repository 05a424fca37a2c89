# e2e: --entry=net --input=x:float32[2,12,12,16] --input=w3:float32[3,3,16,32] --input=w7:float32[7,7,16,8] --input=w1:float32[16,24] --input=b:float32[2,12,12,32] --input=w13:float32[1,3,16,32] --input=dw:float32[3,3,16]
# e2e-also: --auto-mixed-precision=O2
# Convolutions written in plain NumPy, which recognize-convolution makes Conv2D at O2: 3x3 "same"
# by einsum in nested loops; 3x3 stride 2 by tensordot with the loops the other way round; 3x3
# dilation 2 added onto an array; a 7x7 stride-2 stem; a 1x3 kernel written out term by term; a
# 1x1 stride-2 window by @; np.dot and np.matmul; depthwise (window * dw[i, j]); in float16 too. Sums that are not convolutions (weights w[j, i] for the
# window shifted by (i, j)) keep their loops and stay correct.
import numpy as np


def net(x, w3, w7, w1, b, w13, dw):
    n, h, w, c = x.shape
    xp = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    same = np.zeros((n, h, w, 32), dtype=np.float32)
    for i in range(3):
        for j in range(3):
            same += np.einsum("nhwc,cf->nhwf", xp[:, i:i + h, j:j + w, :], w3[i, j])
    strided = np.zeros((n, h // 2, w // 2, 32), dtype=np.float32)
    for kj in range(3):
        for ki in range(3):
            strided = strided + np.tensordot(xp[:, ki:ki + h:2, kj:kj + w:2, :], w3[ki, kj], axes=([3], [0]))
    xd = np.pad(x, ((0, 0), (2, 2), (2, 2), (0, 0)))
    dilated = b
    for di in range(3):
        for dj in range(3):
            dilated = dilated + xd[:, 2 * di:2 * di + h, 2 * dj:2 * dj + w, :] @ w3[di, dj]
    xs = np.pad(x, ((0, 0), (3, 3), (3, 3), (0, 0)))
    stem = np.zeros((n, h // 2, w // 2, 8), dtype=np.float32)
    for si in range(7):
        for sj in range(7):
            stem += xs[:, si:si + h:2, sj:sj + w:2, :] @ w7[si, sj]
    row = xp[:, 1:1 + h, 0:w, :] @ w13[0, 0] + xp[:, 1:1 + h, 1:1 + w, :] @ w13[0, 1] + xp[:, 1:1 + h, 2:2 + w, :] @ w13[0, 2]
    pointwise = x[:, ::2, ::2, :] @ w1
    half = np.zeros((n, h, w, 32), dtype=np.float16)
    xh, wh = xp.astype(np.float16), w3.astype(np.float16)
    for hi in range(3):
        for hj in range(3):
            half += xh[:, hi:hi + h, hj:hj + w, :] @ wh[hi, hj]
    swapped = np.zeros((n, h, w, 32), dtype=np.float32)
    for si in range(3):
        for sj in range(3):
            swapped += xp[:, si:si + h, sj:sj + w, :] @ w3[sj, si]
    dotted = np.zeros((n, h, w, 32), dtype=np.float32)
    for i in range(3):
        for j in range(3):
            dotted += np.dot(xp[:, i:i + h, j:j + w, :], w3[i, j])
    matmuls = np.zeros((n, h, w, 32), dtype=np.float32)
    for i in range(3):
        for j in range(3):
            matmuls = np.matmul(xp[:, i:i + h, j:j + w, :], w3[i, j]) + matmuls
    depthwise = np.zeros((n, h, w, c), dtype=np.float32)
    for i in range(3):
        for j in range(3):
            depthwise += xp[:, i:i + h, j:j + w, :] * dw[i, j]
    return same, strided, dilated, stem, row, pointwise, half, swapped, dotted, matmuls, depthwise
