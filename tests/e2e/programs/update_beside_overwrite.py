# e2e: --entry=f --input=a:float32[64] --input=b:float32[64]
# A loop body whose part after an inner loop both updates an array in place and computes an
# elementwise result into the buffer of a value from before the inner loop (which nothing else
# reads): the CPU backend plans both in one pipeline.
import numpy as np


def shifted(b):
    for j in range(2):
        b = b + 1.0
    return b


def step(t, a, b):
    c = shifted(b)
    y = a * 3.0 + c[0]
    y[0:2] = c[1]
    return t + c, y


def f(a, b):
    y = a * 0.0
    z = a * 0.0
    for i in range(3):
        z, y = step(a * 2.0 + b[i], a, b)
    return y, z
