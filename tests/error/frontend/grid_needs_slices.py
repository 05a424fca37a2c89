# RUN: asc-fe --emit=graph %s
import numpy as np
grid = np.mgrid[3]
