# RUN: asc-fe --emit=graph %s
import numpy as np

r = np.arange(4, dtype=np.complex64)
