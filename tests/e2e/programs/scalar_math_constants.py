# NumPy math on Python numbers (np.sqrt(1000)): a 0-d device computation whose kernel stores a
# broadcast scalar, at every optimisation level.
import numpy as np

x = np.random.rand(17, 17).astype(np.float32)
y = x / np.sqrt(1000)
z = x * np.exp(2) + np.log(10)
