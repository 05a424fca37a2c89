# RUN: asc-fe --emit=graph %s
import numpy as np
x = np.ones((2, 3)
y = x + 1
