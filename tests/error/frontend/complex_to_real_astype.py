# RUN: asc-fe --emit=graph %s
import numpy as np

z = np.linspace(0, 1, 4) + 1j
r = z.astype(np.float32)
