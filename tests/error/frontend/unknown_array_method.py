# RUN: asc-fe --emit=graph %s
import numpy as np
a = np.ones((4, 4), dtype=np.float32)
b = a.resize(16)
