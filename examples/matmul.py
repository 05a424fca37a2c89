# The reference guide's first example: a module script multiplying two random matrices.
import numpy as np
a = np.random.rand(256,256)
b = np.random.rand(256,256)
c = np.matmul(a,b)
