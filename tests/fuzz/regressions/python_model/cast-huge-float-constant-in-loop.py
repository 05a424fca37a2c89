# e2e: --entry=f --input=a:float32[8]
# A float constant beyond int32 cast to an integer inside a loop: the loop-counter folding converted
# 1e30 to int64 and the constant's cast to int32 truncated it unchecked (both undefined; UBSan).
import numpy as np

def f(a):
    for i in range(4):
        k = i + np.float32(1e30).astype(np.int32)
        a[i] = a[i] + k
    return a
