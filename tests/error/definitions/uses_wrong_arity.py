# RUN: pyasc --custom-op-config=wrong_arity.json --entry=f --input=x:float32[8] %s -o /dev/null
import numpy as np


def f(x):
    return wrong_arity(x)
