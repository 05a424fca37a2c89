# RUN: asc-fe --emit=graph %s
import numpy as np
a = np.ones(6, dtype=np.float32)
a.shape = (2, 3)
