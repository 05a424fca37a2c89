# RUN: pyasc --opt-level=O3 %s -o /dev/null
import numpy as np
x = np.ones(4)
