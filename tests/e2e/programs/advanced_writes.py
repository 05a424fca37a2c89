# e2e: --entry=f --input=a:float32[8] --input=m:float32[4,5]
# Writes through integer index arrays: the diagonal by np.arange pairs, counts by computed labels
# (cm[t, p] += 1 in a loop over zip), a row swap through a list holding a computed index, columns
# written with a repeated index (the last write wins), and the smallest elements by np.argsort.
import numpy as np


def f(a, m):
    n = 4
    A = m[:, :4].copy()
    A[np.arange(n), np.arange(n)] = np.sum(np.abs(A), axis=1) + 1.0
    cm = np.zeros((3, 3), dtype=int)
    labels = np.floor(np.clip(a, 0.0, 0.99) * 3).astype(int)
    guesses = np.floor(np.clip(a[::-1], 0.0, 0.99) * 3).astype(int)
    for t, p in zip(labels, guesses):
        cm[t, p] += 1
    B = m.copy()
    p = np.argmax(B[:, 0])
    B[[0, p]] = B[[p, 0]]
    C = m.copy()
    C[:, np.array([1, 3, 1])] = np.array([7.0, 8.0, 9.0])
    D = a.copy()
    D[np.argsort(a)[:3]] = -1.0
    return A, cm, B, C, D
