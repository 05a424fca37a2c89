# RUN: asc-fe --emit=graph %s
import numpy as np

r = np.arange(0.0, 1.0, 1e-30)
