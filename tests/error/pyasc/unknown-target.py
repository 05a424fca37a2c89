# RUN: pyasc --target=ascend999 %s -o /dev/null
import numpy as np
x = np.ones(4)
