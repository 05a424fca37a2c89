# RUN: asc-fe --emit=graph --entry=f --input=a:float32[4] %s
import numpy as np

def f(a):
    while a > 1.0:
        a = a / 2
    return a
