# e2e:
# The reference guide's chunked processing: a seeded random array scaled in place chunk by chunk.
import numpy as np


def process(chunk):
    chunk *= 2


np.random.seed(0)
data = np.random.rand(4096).astype(np.float32)
n = data.shape[0]
chunk_size = 512
for i in range(0, n, chunk_size):
    process(data[i:i + chunk_size])
