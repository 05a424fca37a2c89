# RUN: pyasc --opt-level=O3 %s -o out.om
import numpy as np
x = np.ones(4)
