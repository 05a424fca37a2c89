# e2e: --entry=f --input=a:float32[40] --input=w:float32[40] --input=m:float32[6,5]
# Loops that only accumulate into an array at indices computed from their items run as one scatter
# (frontend/Scatters.cpp): counts by zip, a histogram over an array's items, weights by a range
# index, rows and columns, subtraction and products, a constant index beside an item; np.add.at and
# its kin (a list of indices is one index array; no index adds nothing); a loop that reads the array
# it writes, or adds a whole array per iteration, stays a loop.
import numpy as np


def f(a, w, m):
    labels = np.floor(np.clip(a, 0.0, 0.99) * 4).astype(int)
    guesses = np.floor(np.clip(w, 0.0, 0.99) * 4).astype(int)
    cm = np.zeros((4, 4), dtype=int)
    for t, p in zip(labels, guesses):
        cm[t, p] += 1
    hist = np.zeros(4, dtype=np.int32)
    for v in labels:
        hist[v] += 2
    sums = np.zeros(6, dtype=np.float32)
    for i in range(1, 37, 3):
        sums[labels[i] + 1] += w[i] * 0.5 - i
    rows = m.copy()
    for i in range(12):
        rows[labels[i] - 4] -= w[i]
    cols = np.ones((6, 4))
    for t in guesses:
        cols[:, t] *= 1.5
    added = np.zeros((4, 5))
    np.add.at(added, (labels[:10], guesses[:10]), w[:10])
    np.add.at(added, labels[10:20], 1.0)
    low = np.full(4, 10.0, dtype=np.float32)
    np.minimum.at(low, labels, a)
    high = m.copy()
    np.maximum.at(high, (guesses, 2), w)
    taken = np.ones(5, dtype=np.int32)
    np.subtract.at(taken, guesses[:6], 3)
    np.multiply.at(taken, np.array([0, 4, -1]), -2)
    chain = np.zeros(4)
    chain[0] = 1.0
    for t in labels[:8]:
        chain[t] += chain[0]
    whole = np.zeros((4, 5), dtype=np.float32)
    for i in range(5):
        whole[labels[i]] += w[i] * w[:5]
    firsts = np.zeros((4, 3), dtype=np.int32)
    for t in labels:
        firsts[t, 0] += 1
    listed = np.zeros(5)
    np.add.at(listed, [0, 1, 1], 2.0)
    np.add.at(listed, labels[:0], 1.0)
    np.add.at(rows, [0, 5], w[:5])
    return cm, hist, sums, rows, cols, added, low, high, taken, chain, whole, firsts, listed
