# e2e: --entry=tiled_transpose --input=a:float32[128,128]
# Nested loops kept as loops, writing 32x32 transposed tiles.
import numpy as np

TILE = 32


def tiled_transpose(a):
    n = a.shape[0] // TILE
    out = np.zeros_like(a)
    for i in range(n):
        for j in range(n):
            out[TILE * j:TILE * j + TILE, TILE * i:TILE * i + TILE] = a[TILE * i:TILE * i + TILE, TILE * j:TILE * j + TILE].T
    return out
