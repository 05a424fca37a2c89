# RUN: asc-fe --emit=graph --entry=f --input=a:float32[4] %s
import numpy as np

def f(a):
    t = 0
    for i in range(300):
        for j in range(300):
            t = t + 1
    return a * t
