# RUN: asc-fe --emit=graph %s
import numpy as np
    x = np.ones(3)
