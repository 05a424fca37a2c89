# Random draws scaled past int32 and cast to int64: at O2 the scale joins the random input's recipe
# (fold-random-affine), and integer narrowing takes the scaled range, [0, 4e9), so the int64 values
# stay int64.
import numpy as np

np.random.seed(3)
big = (np.random.rand(1024).astype(np.float32) * np.float32(4e9)).astype(np.int64)
small = (np.random.rand(1024).astype(np.float32) * np.float32(1000) + np.float32(-500)).astype(np.int64)
residues = big % 7 + small
