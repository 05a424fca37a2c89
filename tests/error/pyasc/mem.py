# RUN: pyasc --target=ascend310 --entry=f --input=a:float32[50000,50000] %s -o /dev/null
import numpy as np


def f(a):
    return a * 2 + 1
