# RUN: asc-fe --emit=graph --entry=func %s
from pyasc import Tensor, float16, float32

def func(a: Tensor[float16, 8]) -> Tensor[float32]:
    return a * 2
