# A program calling the te.compute operator of te_matmul/.
# e2e: --custom-op-config=te_matmul/te_matmul.json --entry=project --input=x:float32[48,64] --input=w:float32[64,40]
import numpy as np


def project(x, w):
    return np.maximum(te_matmul(x, w), 0)
