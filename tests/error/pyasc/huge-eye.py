# RUN: pyasc %s -o /dev/null
# np.eye and np.linspace build their arrays at compile time: one beyond the constant limit is refused.
import numpy as np

x = np.eye(2**20)
