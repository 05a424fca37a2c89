# RUN: asc-fe --emit=graph %s
# Python's integers are unbounded; a constant beyond 64 bits is an error, never a silent wrap.
import numpy as np

scale = 3 ** 40
y = np.ones(4, dtype=np.float32) * scale
