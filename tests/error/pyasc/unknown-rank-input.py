# RUN: pyasc --entry=axpy16 --input=y:float16[2048] %s -o /dev/null
# A parameter of unknown rank (Tensor[float16] without --input) is refused before code generation.
from pyasc import Tensor, float16


def axpy16(x: Tensor[float16], y: Tensor[float16]):
    return x * 0.5 + y - 1
