# RUN: pyasc --entry=f --input=a:int32[8] --input=b:int32[8] %s -o out.om
import numpy as np


def f(a, b):
    return np.bitwise_xor(a, b)
