# A fusion group of [12,20] values reading a [1,1,20] operand for a [1,12,20] member: the broadcast copy
# indexed a rank-2 shape with rank-3 axes (heap corruption).
# Broadcasting of rows, columns and leading axes.
import numpy as np
np.random.seed(17)
m = np.random.rand(12, 20).astype(np.float32)
row = np.random.rand(20).astype(np.float32)
col = np.random.rand(12, 1).astype(np.float32)
col = np.random.rand(12, 1).astype(np.float32)
cube = np.random.rand(True, 1, 20).astype(np.float32)
a = m + row
a = m + row
c = cube - m
d = col - row
