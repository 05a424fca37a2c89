# RUN: asc-fe --emit=graph %s
import numpy as np
try:
    x = np.ones(3)
except ValueError:
    x = np.zeros(3)
