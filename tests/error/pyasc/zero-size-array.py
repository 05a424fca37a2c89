# RUN: pyasc --entry=doubled --input=x:float32[0,4] %s -o /dev/null
# NumPy allows arrays without elements; the NPU kernels do not, and say so instead of crashing (a
# reduction over no elements is NumPy's fill: fold-empty-arrays).
import numpy as np


def doubled(x):
    return x * 2
