# Reshapes, transposes and .T chained.
import numpy as np

np.random.seed(6)
x = np.random.rand(4, 6, 10).astype(np.float32)
a = x.reshape(24, 10).T
b = np.transpose(x, (2, 0, 1)).reshape(10, 24)
c = a + b
