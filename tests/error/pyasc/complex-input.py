# RUN: pyasc --entry=f --input=z:complex64[4] %s -o /dev/null
# complex inputs: the message says how to pass one
import numpy as np

def f(z):
    return z * 2
