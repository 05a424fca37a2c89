# RUN: pyasc --entry=f --input=x:float32[4] %s -o /dev/null
# int64 values beyond int32 are computed on the scalar unit; an operator it has no lowering for (it has
# no floats: float16 results) is a located error at compile time, not a silent narrowing.
import numpy as np


def f(x):
    return (np.arange(3000000000, 3000000004).astype(np.float16) > 5) & (x > 0.5)
