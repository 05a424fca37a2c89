# RUN: pyasc %s
import numpy as np
x = np.ones(4)
