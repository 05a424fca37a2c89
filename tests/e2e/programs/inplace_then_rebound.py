# e2e: --entry=f --input=a:float32[16]
# A loop may both write an array in place and rebind its name (z = step(z) where step writes z and
# returns it; w[i] = 0 then w = w + 1) when no other name reaches the array: each trip starts from
# whatever array the name holds.
import numpy as np


def step(z):
    z[1:-1] = 0.5 * (z[:-2] + z[2:])
    z[0] = z[-1]
    return z


def f(a):
    z = a.copy()
    for t in range(5):
        z = step(z)
    w = a * 2
    for i in range(4):
        w[i] = 0
        w = w + 1
    return z, w
