# RUN: pyasc --dynamic-dims=1-4 %s -o /dev/null
import numpy as np
x = np.ones(4)
