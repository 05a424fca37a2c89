# RUN: asc-fe --emit=graph --entry=f --input=x:float16[64] %s
import numpy as np

def f(x):
    return custom_relu(x)
