# RUN: asc-fe --emit=graph %s
import numpy as np
data = np.ones(1000, dtype=np.float32)
chunk_size = 128
for i in range(0, data.shape[0], chunk_size):
    data[i:i + chunk_size] *= 2
