# e2e: --entry=f --input=v:float32[50] --input=m:float32[6,20]
# np.linalg.norm: vector norms of several orders over the flattened array or an axis, and the
# Frobenius norm of a matrix.
import numpy as np


def f(v, m):
    return (np.linalg.norm(v), np.linalg.norm(m), np.linalg.norm(m, axis=1), np.linalg.norm(v, 1),
            np.linalg.norm(v, np.inf), np.linalg.norm(v, -np.inf), np.linalg.norm(m, 'fro'), np.linalg.norm(v - 0.5, 3),
            np.linalg.norm(m, axis=0, keepdims=True), np.linalg.norm(v - 0.5, 0), np.linalg.norm(m, ord=2, axis=1))
