# e2e: --entry=f --input=x:float32[200,4,12] --input=w:float32[12,32] --input=y:float32[1,3071,16] --input=v:float32[16,32] --input=z:float32[16,8,16]
# e2e-also: --auto-mixed-precision=O1
# e2e-also: --auto-mixed-precision=O2
# Reductions that only matmuls read, which mixed precision has write float16 results: rows of 12
# (padded to 16 in UB) over 200 slices; a mean over 3071 rows whose float16 copy must fit UB beside
# it; and a sum also carried on by a loop (which keeps it float32).
import numpy as np


def f(x, w, y, v, z):
    rows = x.sum(axis=1) @ w
    wide = y.mean(axis=1) @ v
    s = np.zeros((16, 16), dtype=np.float32)
    acc = np.zeros((16, 32), dtype=np.float32)
    for i in range(3):
        s = (z + s[:, None, :]).sum(axis=1)
        acc = acc + s @ v
    return rows, wide, acc
