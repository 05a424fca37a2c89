# e2e: --entry=net --input=x:float32[2,10,10,8] --input=w:float32[3,3,8,16] --input=wt:float32[16,8,3,3] --input=dw:float32[3,3,8]
# e2e-also: --auto-mixed-precision=O2
# Convolutions written with np.lib.stride_tricks.sliding_window_view and a contraction, which
# recognize-convolution makes Conv2D at O2: einsum "nhwcij,ijcf->nhwf" over the windows of a padded
# input; every second window by np.tensordot; weights in PyTorch's [F,C,KH,KW] order; depthwise by
# "nhwcij,ijc->nhwc". Windows over the axes (2, 1), whose einsum is not a convolution of x, stay
# as written and correct. sliding_window_view also runs on its own (every axis, one axis).
import numpy as np
from numpy.lib import stride_tricks
from numpy.lib.stride_tricks import sliding_window_view


def net(x, w, wt, dw):
    xp = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    v = sliding_window_view(xp, (3, 3), axis=(1, 2))
    same = np.einsum("nhwcij,ijcf->nhwf", v, w)
    strided = np.tensordot(v[:, ::2, ::2], w, axes=([3, 4, 5], [2, 0, 1]))
    torch = np.einsum("nhwcij,fcij->nhwf", v, wt)
    depth = np.einsum("nhwcij,ijc->nhwc", v, dw)
    swapped = np.einsum("nhwcij,ijcf->nhwf", np.lib.stride_tricks.sliding_window_view(xp, (3, 3), axis=(2, 1)), w)
    rows = sliding_window_view(x[0, :, :, 0], (2, 3))
    columns = stride_tricks.sliding_window_view(x, 4, axis=2)
    return same, strided, torch, depth, swapped, rows, columns
