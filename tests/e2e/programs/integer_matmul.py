# Integer matrix products the cube unit cannot compute exactly (partial sums beyond float32's 2^24,
# int64 operands): exact sums of products on the scalar unit, wrapping as NumPy's, through @, dot,
# matmul with batches, matrix-vector products and einsum.
import numpy as np

a = (np.arange(60, dtype=np.int64).reshape(5, 12) * 7919 - 200000) * 40_000
b = np.arange(36, dtype=np.int64).reshape(12, 3) % 11 - 5
product = a @ b
vector = np.dot(a, b[:, 0])
rows = np.arange(24, dtype=np.int32).reshape(2, 3, 4) * 100_003 - 1_000_000   # int32 sums that wrap
cols = np.arange(40, dtype=np.int32).reshape(2, 4, 5) * 77_777
batched = np.matmul(rows, cols)
shared = rows @ cols[0]
pairs = np.einsum("ij,jk->ik", a[:, :4], b[:4, :] * 3_000_000_000)
small = (np.arange(16) % 9 - 4).astype(np.int8).reshape(4, 4)
small_square = small @ small @ small                                          # int8, wrapping
