# e2e: --entry=f --input=x:float32[40,3] --input=v:float32[32]
# Boolean-mask selections, whose length depends on the data: counted (len, .size), reduced over
# their rows or their other axes, combined elementwise with arrays and with selections by the same
# mask, written back through that mask (rows of a 2-D array by a 1-D mask), and made by np.nonzero,
# np.flatnonzero, np.where(condition) and np.unique. The masks compare with the data's own means, so
# that none is empty whatever the inputs' range.
import numpy as np


def f(x, v):
    m = v.mean()
    c = x.mean(axis=0)
    pos = v[v > m]
    big_rows = x[x[:, 0] > c[0]]
    row_means = big_rows.mean(axis=0)
    row_peaks = big_rows.max(axis=1).sum()
    tail = x[x[:, 2] < c[2], 1:]
    scaled = x.copy()
    scaled[x[:, 1] < c[1]] = x[x[:, 1] < c[1]] * 2 + np.abs(x[x[:, 1] < c[1], None, 2]) + 1
    cleared = x.copy()
    cleared[np.repeat(v[:20], 2) > m] = 0.0
    counted = x.copy()
    counted[x > c] += 1
    idx = np.nonzero(v > m)[0]
    near = np.flatnonzero(np.abs(v - m) <= np.abs(v - m).mean())
    levels = np.unique(np.floor(v * 3)).size
    return (len(pos), pos.sum(), pos.mean(), row_means, row_peaks, tail.sum(axis=0), tail.size, scaled, cleared,
            counted, v[idx].sum(), idx.size, near.max(), near.min(), np.where(v > m)[0].size, levels,
            v[v <= m].max(), v[v >= m].min(), (pos ** 2).sum() / pos.size, (v[v > m] > m + 0.1).any())
