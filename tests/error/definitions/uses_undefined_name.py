# RUN: pyasc --custom-op-config=undefined_name.json --entry=f --input=x:float32[8] %s -o /dev/null
import numpy as np


def f(x):
    return undefined_name(x)
