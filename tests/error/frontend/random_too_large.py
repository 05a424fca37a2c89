# RUN: asc-fe --emit=graph %s
import numpy as np

noise = np.random.rand(1 << 21, 1 << 20)
