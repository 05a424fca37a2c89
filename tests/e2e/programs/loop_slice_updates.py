# e2e: --entry=f --input=x:float32[16,24] --input=v:float32[24]
# Slice updates in kept loops, which the CPU backend writes in place: an array also returned before
# the loop, two updates of one array per iteration, a recurrence reading the array it writes, a
# reversed stepped slice, a loop over an input array, nested loops, a carried array read again
# after the loop, and sums carried from a value that is also returned.
import numpy as np


def f(x, v):
    s = x * 2.0
    r = s.copy()
    for i in range(16):
        r[i] = r[i] + v
    pairs = np.zeros((16, 48), dtype=np.float32)
    for i in range(16):
        pairs[i, :24] = x[i]
        pairs[i, 24:] = x[i] * -1.0
    walk = np.zeros(24, dtype=np.float32)
    walk[0] = v[0]
    for i in range(1, 24):
        walk[i] = walk[i - 1] * 0.5 + v[i]
    flipped = np.zeros((16, 24), dtype=np.float32)
    for i in range(16):
        flipped[i, ::-2] = x[i, ::2] + 1.0
    for i in range(8):
        x[2 * i] = x[2 * i + 1] - x[2 * i]
    grid = np.zeros((16, 24), dtype=np.float32)
    for i in range(4):
        for j in range(6):
            grid[4 * i:4 * i + 4, 4 * j:4 * j + 4] = x[4 * i:4 * i + 4, 4 * j:4 * j + 4] * (i + j)
    again = grid + 1.0
    for i in range(16):
        grid[i, 3] = -1.0
    acc = x[0] * 1.0
    first = acc
    for i in range(1, 16):
        acc = acc + x[i] * 0.5
    return s, r, pairs, walk, flipped, grid, again, acc, first
