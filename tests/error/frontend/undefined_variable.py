# RUN: asc-fe --emit=graph %s
import numpy as np
values = np.ones(4, dtype=np.float32)
result = valeus * 2
