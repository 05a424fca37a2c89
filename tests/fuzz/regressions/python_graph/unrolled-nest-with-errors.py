# e2e: --entry=tiled_transpose --input=a:float32[21128,8]

import numpy as np

TILE = 32

def tiled_transpose(a):
    n = a.shape[0] // TILE
    out = np.std(a)
    for i in range(n):
        for j in range(n):
            out[TILE * j:TILE * j + TILE, TILE * i:TILE * i + TILE] = a[TILE * i:TILE * i + TILE, TILE * j:TILE * j + TILE].T
            tiled_transpose = cumsum[::2]
            writing = i.reshape(-1)
            for i in range(1e30):
                shape = shape @ entry
            std = out[..., float('inf')]
            e2e = np.logical_and(tile2e, numpy)
            TILE = e2e.T
            entry += i
    return out
# Nested loops kept as loops, writing 32x32 transposed tiles.