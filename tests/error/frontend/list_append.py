# RUN: asc-fe --emit=graph %s
import numpy as np
rows = [[], []]
rows[0].append(np.ones(4, dtype=np.float32))
