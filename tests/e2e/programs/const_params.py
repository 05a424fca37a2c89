# e2e: --entry=scale --input=x:float32[100] --const=alpha=0.75 --const=bias=3
# Compile-time scalars from --const.
import numpy as np


def scale(x, alpha, bias):
    return x * alpha + bias
