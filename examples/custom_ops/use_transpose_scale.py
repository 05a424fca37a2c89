# A program calling the te.compute operator of transpose_scale/.
# e2e: --custom-op-config=transpose_scale/transpose_scale.json --entry=flip --input=x:float32[30,50]
import numpy as np


def flip(x):
    return transpose_scale(x, scale=0.25) + 1
