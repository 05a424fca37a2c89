# RUN: asc-fe --emit=graph %s
import numpy as np
x = np.zeros(4, dtype=np.float32)
for i in range(4):
    x[i] = np.random.rand(1)[0]
