# RUN: asc-fe --emit=graph --entry=func --input=a:float16[4] %s
from pyasc import Tensor, float32

def func(a: Tensor[float32]) -> Tensor[float32]:
    return a * 2
