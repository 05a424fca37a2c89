# RUN: pyasc %s -o /dev/null
# An array larger than the device is refused before any kernel is generated for it.
import numpy as np

x = np.random.rand(4, 8).astype(np.float32)
y = np.pad(x, 2**17)
