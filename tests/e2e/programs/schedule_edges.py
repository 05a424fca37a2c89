# e2e: --entry=f --input=x:float32[12,5] --input=a:float32[64,64] --input=b:float32[64,64] --input=v:float32[5000]
# Shapes at the edges of the CPU backend's schedules: a gather of more than 8 constant indices (a
# table, not a choice among constants), slices of a matmul whose product is computed in register
# tiles (the tiles cover the whole product, not the slice), and zip() over a long array with a
# short range, which takes only the rows the range reaches.
import numpy as np


def f(x, a, b, v):
    h = a @ b
    total = np.float32(0)
    for k, e in zip(range(3), v):
        total = total + e * k
    return np.take(x, [0, 1, 2, 3, 4, 5, 6, 7, 8, 11], axis=0), h[:2], h[:, :3], total
