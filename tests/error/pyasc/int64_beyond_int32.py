# RUN: pyasc --entry=f --input=x:float32[4] %s -o /dev/null
# int64 values beyond int32 are computed on the scalar unit, which has no floats: converting them to
# float32 is a located error at compile time, not a silent narrowing.
import numpy as np


def f(x):
    return np.arange(3000000000, 3000000004).astype(np.float32) * x
