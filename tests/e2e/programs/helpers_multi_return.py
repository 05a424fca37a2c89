# e2e: --entry=main --input=a:float32[50] --input=b:float32[50]
# Helper functions are inlined; several return values become out0, out1, out2.
import numpy as np


def square_diff(x, y):
    d = x - y
    return d * d


def main(a, b):
    s = square_diff(a, b)
    return s, s.sum(), np.mean(s)
