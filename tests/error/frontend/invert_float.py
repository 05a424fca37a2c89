# RUN: asc-fe --emit=graph %s
# ~ is bitwise not on integers and logical not on booleans; NumPy refuses it on floats.
import numpy as np

a = np.linspace(0, 1, 10).astype(np.float32)
b = ~a
