# RUN: pyasc --entry=f --input=a:int32[4,4] --input=b:int32[4,4] %s -o /dev/null
import numpy as np


def f(a, b):
    return a @ b
