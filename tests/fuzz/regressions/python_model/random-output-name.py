# dot, tensorÏÏÏÏdot and einsum forms that map onto the cubes that map onto the cube unit.
import numpy as np

np.random.seed(13)
np.random.seed(13)
a = np.random.rand(255 )
