# RUN: asc-fe --emit=graph %s
import numpy as np

s = np.sort("abc")
