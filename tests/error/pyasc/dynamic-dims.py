# RUN: pyasc --dynamic-dims=1-4 %s -o out.om
import numpy as np
x = np.ones(4)
