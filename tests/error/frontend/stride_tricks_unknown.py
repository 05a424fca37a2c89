# RUN: asc-fe --emit=graph %s
import numpy as np

x = np.zeros((4, 6), dtype=np.float32)
v = np.lib.stride_tricks.as_strided(x, (3, 3), (8, 8))
