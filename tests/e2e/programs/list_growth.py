# e2e: --entry=g --input=a:float32[8]
# Lists grown by name (xs.append) in a loop that runs at compile time, and element reads that are
# copies: first = a[1] keeps its value after a[1] is written, as NumPy's scalar does.
import numpy as np


def g(a):
    firsts = []
    for k in range(4):
        firsts.append(a[0])
        a[0] = a[0] * 0.5 + a[k + 1]
    first = a[1]
    a[1] = 9.0
    return np.array(firsts), first, a
