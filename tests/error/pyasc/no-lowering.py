# RUN: pyasc --entry=f --input=a:float32[8] %s -o out.om
import numpy as np


def f(a):
    return np.arcsin(a)
