# e2e: --entry=g --input=a:float32[8]
# Lists grown by name (xs.append) in a loop that runs at compile time, and element reads that are
# copies: first = a[1] keeps its value after a[1] is written, as NumPy's scalar does, and
# w = a[i]; w -= x rebinds w in a loop.
import numpy as np


def g(a):
    firsts = []
    for k in range(4):
        firsts.append(a[0])
        a[0] = a[0] * 0.5 + a[k + 1]
    first = a[1]
    a[1] = 9.0
    s = np.zeros(4, dtype=np.float32)
    for i in range(4):
        w = a[i]  # a scalar: w -= ... rebinds it, and the loop below carries it
        for k in range(3):
            w -= a[k + 4] * 0.5
        s[i] = w
    return np.array(firsts), first, a, s
