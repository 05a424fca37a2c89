# A program calling the te.compute operator of batched_outer/.
# e2e: --custom-op-config=batched_outer/batched_outer.json --entry=outer --input=a:float32[4,30] --input=b:float32[4,48]
import numpy as np


def outer(a, b):
    return batched_outer(a, b).sum(axis=0)
