# RUN: asc-fe --emit=graph --entry=f --input=b:float32[5,3] %s
import numpy as np


def f(b):
    for row in b:
        row[0] = row[1] + 1.0
    return b
