# RUN: asc-fe --emit=graph %s
import numpy as np
a = np.ones((4, 4), dtype=np.float32)
b = np.sum(a, axs=0)
