# RUN: pyasc %s -o /dev/null
# An integer attribute beyond 2^31 (here a pad) is refused where it is written.
import numpy as np

x = np.random.rand(4, 8).astype(np.float32)
y = np.pad(x, 2**40)
