# RUN: pyasc --entry=f --input=a:bool[4,4] --input=b:bool[4,4] %s -o /dev/null
# Integer matmuls are summed exactly (the scalar unit where float32 is not exact); boolean ones are
# refused with the integer rewrite.
import numpy as np


def f(a, b):
    return a @ b
