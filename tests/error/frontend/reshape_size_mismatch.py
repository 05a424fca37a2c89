# RUN: asc-fe --emit=graph %s
import numpy as np
a = np.ones((4, 3), dtype=np.float32)
b = a.reshape(5, 3)
