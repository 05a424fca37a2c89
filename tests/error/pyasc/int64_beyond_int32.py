# RUN: pyasc --entry=f --input=x:float32[4] %s -o /dev/null
# int64 values beyond int32 have no vector instructions: a located error at compile time (it was a
# simulator error at run time), not a silent narrowing.
import numpy as np


def f(x):
    return (np.arange(3000000000, 3000000004) > 3000000001) & (x > 0.5)
