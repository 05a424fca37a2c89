# RUN: asc-fe --emit=graph --entry=f --input=a:float32[5000] --input=idx:int32[5000] %s
import numpy as np


def f(a, idx):
    return a[idx]
