# RUN: pyasc --custom-op-config=compute_float64.json --entry=f --input=x:float32[8] %s -o /dev/null
import numpy as np


def f(x):
    return compute_float64(x)
