# bench: --entry=f --input=x:float32[4194304]
# floor: reads
# The 2-norm of a 4M-element vector, reduced in stages.
import numpy as np


def f(x):
    return np.sqrt(np.sum(x * x))
