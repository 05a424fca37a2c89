# e2e: --entry=rearrange --input=x:float32[4,6,8]
# Data movement: transpose, reshape, concatenate, stack, expand_dims, squeeze and strided slices.
import numpy as np


def rearrange(x):
    t = np.transpose(x, (1, 0, 2))
    flat = t.reshape(6, -1)
    both = np.concatenate([flat, flat[:, ::-1]], axis=1)
    stacked = np.stack([x[0], x[-1]], axis=0)
    column = np.expand_dims(x[:, 1, 2], axis=1)
    return both, stacked, np.squeeze(column), x[1:3, ::2, 1::3]
