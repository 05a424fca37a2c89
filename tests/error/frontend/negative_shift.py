# RUN: asc-fe --emit=graph %s
import numpy as np

y = np.ones(4, dtype=np.float32) * (1 << -1)
