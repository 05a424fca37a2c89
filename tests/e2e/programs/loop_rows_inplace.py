# e2e: --entry=f --input=A:float32[8,33]
# A loop updating one row per iteration in place.
import numpy as np


def f(A):
    for i in range(8):
        A[i] = A[i] * (i + 1)
