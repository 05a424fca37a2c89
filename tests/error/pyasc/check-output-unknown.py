# RUN: pyasc check %s --output bb
# check --output names a top-level array; a name that is not one lists the arrays there are.
import numpy as np

a = np.random.rand(64).astype(np.float32)
b = np.exp(a)
c = b * 2.0
