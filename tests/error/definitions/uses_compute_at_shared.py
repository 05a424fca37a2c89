# RUN: pyasc --custom-op-config=compute_at_shared.json --entry=f --input=x:float32[8] %s -o /dev/null
import numpy as np


def f(x):
    return compute_at_shared(x)
