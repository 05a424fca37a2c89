# RUN: pyasc --entry=f --input=x:float32[N,H,W,3] --dynamic-dims=1-4,8-16,8-16 %s -o /dev/null
import numpy as np


def f(x):
    return x.mean(axis=(1, 2))
