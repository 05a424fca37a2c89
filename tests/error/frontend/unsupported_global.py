# RUN: asc-fe --emit=graph --entry=f --input=a:float32[4] %s
import numpy as np
count = 0

def f(a):
    global count
    return a
