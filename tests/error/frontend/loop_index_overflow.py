# RUN: asc-fe --emit=graph %s
import numpy as np

a = np.ones(4, dtype=np.float32)
for i in range(3):
    a[i * 4611686018427387904 * 4] = 1.0
