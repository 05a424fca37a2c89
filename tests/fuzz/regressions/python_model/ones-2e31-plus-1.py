# RUN: asc-fe --emit=graph --target=ascend999 %s
import numpy as np
x = np.ones(2**31, dtype=np.float32) + 1
