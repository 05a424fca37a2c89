# RUN: asc-fe --emit=graph --entry=f --input=a:float32[4] %s
import numpy as np

def f(a):
    total = 0
    while total < a.sum():
        total = total + 0.5
    return a * total
