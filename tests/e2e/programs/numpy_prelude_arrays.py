# e2e: --entry=f --input=a:float32[12] --input=m:float32[5,6] --input=s:float32[4,4]
# NumPy functions the frontend writes in Python (frontend/numpy_prelude.py): triangles, diagonals,
# flips and rolls, differences, stacking, grids, insertion and Kronecker products.
import numpy as np


def f(a, m, s):
    return (np.tril(m), np.triu(m, 1), np.tril(s, -1), np.diag(s), np.diag(a[:3], 1), np.diag(a[:2], -2),
            np.trace(m), np.diagonal(m, 2), np.flip(m), np.flip(m, 1), np.fliplr(s), np.flipud(s), np.rot90(m),
            np.rot90(m, 3), np.roll(a, 3), np.roll(m, -2, axis=1), np.diff(a), np.diff(m, n=2, axis=0),
            np.vstack([m, m[:2]]), np.hstack([a, a[:3]]), np.column_stack([a[:5], m[:, 0]]), np.meshgrid(a[:3], a[:4])[0],
            np.meshgrid(a[:2], a[:3], a[:4], indexing='ij')[1], np.insert(a, 4, -1.0), np.append(a, m[0]),
            np.kron(s[:2, :2], s[2:, 2:]), np.outer(a[:4], a[4:7]), np.inner(m, m), np.swapaxes(m, 0, 1),
            np.moveaxis(m[None], 0, 2), np.repeat(a[:4], 3), np.cross(m[:, :3], m[:, 3:]), np.vander(a[:4], 3),
            np.ediff1d(a))
