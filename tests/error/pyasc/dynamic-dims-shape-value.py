# RUN: pyasc --entry=f --input=x:float32[N,8] --dynamic-dims=1-4 %s -o /dev/null
import numpy as np


def f(x):
    return x + np.arange(x.shape[0] * 8, dtype=np.float32).reshape(x.shape)
