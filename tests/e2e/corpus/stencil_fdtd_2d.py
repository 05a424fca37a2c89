# source: PolyBench/C 4.2.1, kernel 'fdtd-2d' (stencils/fdtd-2d, description in polybench.pdf)
# 2-D finite-difference time-domain (Yee) update of the ex, ey and hz fields
import numpy as np

NX = 24
NY = 32
TMAX = 20

i = np.arange(NX, dtype=np.float64)[:, None]
j = np.arange(NY, dtype=np.float64)[None, :]
ex = i * (j + 1.0) / NX
ey = i * (j + 2.0) / NY
hz = i * (j + 3.0) / NX
fict = np.arange(TMAX, dtype=np.float64)

for t in range(TMAX):
    ey[0, :] = fict[t]
    ey[1:, :] = ey[1:, :] - 0.5 * (hz[1:, :] - hz[:-1, :])
    ex[:, 1:] = ex[:, 1:] - 0.5 * (hz[:, 1:] - hz[:, :-1])
    hz[:-1, :-1] = hz[:-1, :-1] - 0.7 * (ex[:-1, 1:] - ex[:-1, :-1] + ey[1:, :-1] - ey[:-1, :-1])

ex_out = ex
ey_out = ey
hz_out = hz
