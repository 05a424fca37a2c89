# RUN: asc-fe --emit=graph --entry=f %s
from pyasc import Tensor

def f(a: Tensor):
    return a
