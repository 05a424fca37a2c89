# RUN: pyasc --custom-op-config=unsupported_te.json --entry=f --input=x:float32[8] %s -o /dev/null
import numpy as np


def f(x):
    return unsupported_te(x)
