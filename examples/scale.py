# The reference guide's annotated function: doubles every element of a float32 tensor.
# e2e: --entry=func
import numpy as np
from pyasc import Tensor, float32


def func(a: Tensor[float32, 1024, 1024]) -> Tensor[float32]:
    return a * 2
