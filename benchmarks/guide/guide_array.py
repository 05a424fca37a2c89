# The reference guide's element loop written as the array operation it computes.
import numpy as np

data = np.random.rand(1024).astype(np.float32)
data[:1024] *= 2
