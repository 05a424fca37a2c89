# RUN: asc-fe --emit=graph %s
import numpy as np
with np.errstate(all="ignore"):
    x = np.ones(3) / 0
