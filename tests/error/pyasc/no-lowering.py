# RUN: pyasc --entry=f --input=a:int32[8] --input=b:int32[8] %s -o /dev/null
import numpy as np


def f(a, b):
    return np.bitwise_xor(a, b)
