# e2e: --entry=f --input=x:float32[1,8,8,16] --input=w3:float32[3,3,16,8] --input=x5:float32[1,5,4,16] --input=w21:float32[2,1,16,8] --input=xs:float32[1,5,5,3] --input=ws:float32[3,3,3,4]
# Programs that look like the window idioms recognize-convolution and recognize-pooling take but
# are not: a tap whose one-row window broadcasts against the sum; a maximum of windows of different
# heights; taps added onto a batch of 2 from a batch-1 input; a sum of windows divided and also read
# on its own; windows of an array computed inside the loop over the taps; a tensordot of
# sliding_window_view windows over other axes; taps whose windows have different strides; im2col
# columns with one slot written twice. Each keeps its nodes and matches NumPy.
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view


def f(x, w3, x5, w21, xs, ws):
    broadcast_tap = x5[:, 0:1, :, :] @ w21[0, 0] + x5[:, 1:5, :, :] @ w21[1, 0]
    broadcast_window = np.maximum(x5[:, 0:1, :, :], x5[:, 1:5, :, :])
    batch = np.zeros((2, 6, 6, 8), dtype=np.float32)
    for i in range(3):
        for j in range(3):
            batch = batch + x[:, i:i + 6, j:j + 6, :] @ w3[i, j]
    s = x[:, :, 0:7, :] + x[:, :, 1:8, :]
    shared = s / 2.0 + s
    local = np.zeros((1, 6, 6, 8), dtype=np.float32)
    for i in range(3):
        for j in range(3):
            local = local + np.maximum(x, 0)[:, i:i + 6, j:j + 6, :] @ w3[i, j]
    other_axes = np.tensordot(sliding_window_view(xs, (3, 3), axis=(1, 2)), ws, axes=([1, 4, 5], [0, 1, 2]))
    uneven = x[:, 0:8:2, 0:8:2, :] @ w3[0, 0] + x[:, 1:5, 1:5, :] @ w3[0, 1]
    cols = np.zeros((1, 6, 6, 3, 3, 16), dtype=np.float32)
    for i in range(3):
        for j in range(3):
            cols[:, :, :, i, j, :] = x[:, i:i + 6, j:j + 6, :]
    cols[:, :, :, 1, 1, :] = x[:, 0:6, 0:6, :]
    overlapping = (cols.reshape(36, 144) @ w3.reshape(144, 8)).reshape(1, 6, 6, 8)
    return broadcast_tap, broadcast_window, batch, shared, local, other_axes, uneven, overlapping
