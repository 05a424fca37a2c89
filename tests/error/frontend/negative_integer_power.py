# RUN: asc-fe --emit=graph %s
# NumPy refuses integers to negative integer powers; so does pyasc, at compile time.
import numpy as np

a = np.arange(1, 10, dtype=np.int32)
b = a ** -2
