# e2e:
# The reference guide's module script, seeded so NumPy's legacy MT19937 stream is reproducible.
import numpy as np
np.random.seed(1234)
a = np.random.rand(256, 256)
b = np.random.rand(256, 256)
c = np.matmul(a, b)
