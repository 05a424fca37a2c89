# RUN: asc-fe --emit=graph %s
import numpy as np

c = np.linspace(-1, 1, 8).astype(np.float32) + 0.5j
z = np.zeros(8, np.complex64)
for n in range(10):
    z[0] = 1j
    z = z * z + c
