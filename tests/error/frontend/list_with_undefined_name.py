# RUN: asc-fe --emit=graph %s
# the undefined name is the only error: the list holding it, and the call taking the list, are not
import numpy as np

b = np.ones(4, np.float32)
c = np.sort([a, b], axis=1)
