# RUN: asc-fe --emit=graph %s
import numpy as np

x = np.zeros(4, dtype=np.float32)
x[1] = 2 + 1j
