# RUN: asc-fe --emit=graph --entry=f %s
import numpy as np
from pyasc import Tensor, float32

def f(a: Tensor[float32, "N"]):
    for i in range(4):
        a[i] = 0
        last = a * 2
    return last
