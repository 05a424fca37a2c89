# RUN: asc-fe --emit=graph %s
import numpy as np
a = np.ones(3, dtype=np.float32)
b = np.clip(a, 0)
