# RUN: asc-fe --emit=graph %s
import numpy as np
rows = []
for i in range(3):
    rows.append(np.ones(4, dtype=np.float32) * i)
