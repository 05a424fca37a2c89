# e2e: --entry=saxpy --input=x:float32[1024] --input=y:float32[1024]
# a * x + y with a compile-time default scalar.
import numpy as np


def saxpy(x, y, a=2.5):
    return a * x + y
