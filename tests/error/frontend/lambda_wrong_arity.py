# RUN: asc-fe --emit=graph %s
import numpy as np
square = lambda x: x * x
y = square(np.ones(4, dtype=np.float32), 2)
