# Broadcasting of rows, columns and leading axes.
import numpy as np

np.random.seed(17)
m = np.random.rand(12, 20).astype(np.float32)
row = np.random.rand(20).astype(np.float32)
col = np.random.rand(12, 1).astype(np.float32)
cube = np.random.rand(3, 1, 20).astype(np.float32)
a = m + row
b = m * col
c = cube - m
d = col + row
# the same element count in other rows: one fusion group may not read `row` at m's index
flat = np.random.rand(1, 1, 20).astype(np.float32)
e = flat - m
wide = np.random.rand(20, 12).astype(np.float32)
f = wide + col.reshape(12)
# a row of 88 elements repeats in tiles of lcm(256, 88) = 2816 elements; with cos's temporaries they
# exceed UB, so the kernel reads a copy of the row at the group's shape instead
rows = np.random.rand(3, 4, 22).astype(np.float32)
tile = np.random.rand(4, 22).astype(np.float32)
g = np.cos(rows * tile)
# one boolean element is no scalar operand (the vector unit duplicates no bytes): it is copied
flags = np.random.rand(4, 13) > 0.5
one = np.random.rand(1, 1) > 0.5
h = flags | one
