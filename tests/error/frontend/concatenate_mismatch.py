# RUN: asc-fe --emit=graph %s
import numpy as np
a = np.ones((2, 3), dtype=np.float32)
b = np.ones((2, 4), dtype=np.float32)
c = np.concatenate([a, b], axis=0)
