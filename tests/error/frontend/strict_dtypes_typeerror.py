# RUN: asc-fe --emit=graph --strict-dtypes --entry=func %s
from pyasc import Tensor, float32

def func(a: Tensor[float32]) -> Tensor[float32]:
    return a + 2
