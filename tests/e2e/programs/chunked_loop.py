# e2e: --entry=process_all --input=data:float32[1024]
# The reference guide's chunked loop: a kernel launch per chunk, kept as a loop in the plan.
import numpy as np

chunk_size = 128


def process(block):
    return block * 2.0 + 1.0


def process_all(data):
    n = data.shape[0]
    out = np.zeros(n, dtype=np.float32)
    for i in range(0, n, chunk_size):
        out[i:i + chunk_size] = process(data[i:i + chunk_size])
    return out
