# RUN: pyasc --target=ascend999 %s -o out.om
import numpy as np
x = np.ones(4)
