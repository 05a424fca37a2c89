# e2e: --entry=normalize --input=x:float32[300,1024] --input=h:float16[8,50,256] --input=g:float32[1024] --input=s:float16[8,50,1] --input=w:float32[40,100]
# Columns broadcast along rows stay inside the elementwise kernel (each element stretched over its
# row in UB): row statistics with keepdims, a [N, 1] column, a 3-d column next to a row, and a row
# too narrow to stretch (100 floats are not a whole vector repeat), which is materialised instead.
import numpy as np


def normalize(x, h, g, s, w):
    centred = x - x.mean(axis=1, keepdims=True)
    scaled = centred / np.sqrt((centred * centred).mean(axis=1, keepdims=True) + 1e-5) * g
    peaks = h - np.max(h, axis=-1, keepdims=True) * s
    narrow = w / w.sum(axis=1, keepdims=True)
    return scaled, peaks, narrow
