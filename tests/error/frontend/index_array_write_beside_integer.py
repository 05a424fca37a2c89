# RUN: asc-fe --emit=graph --entry=f --input=a:float32[4,6] --input=idx:int32[3] %s
import numpy as np


def f(a, idx):
    a[0, idx] = 1.0
    return a
