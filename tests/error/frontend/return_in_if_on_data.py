# RUN: asc-fe --emit=graph --entry=f --input=a:float32[4] %s
import numpy as np


def f(a):
    if a[0] > 0:
        return a
    return -a
