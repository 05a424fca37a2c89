# int64 values narrow-integers cannot bound, computed exactly on the scalar unit (64-bit registers):
# arithmetic, floor division and remainder, extremes, comparisons, selections and casts.
import numpy as np

np.random.seed(5)
x = np.random.rand(50).astype(np.float32) * 2 - 1
big = (x * 1e12).astype(np.int64)          # float32 to int64 beyond int32, toward zero
offset = np.arange(50, dtype=np.int64) * 5_000_000_000
total = big + offset * 3 - 7
folded = total // 1_000_003 - total % 977 + (-total) // 13
flags = (total > offset) & (big != 0) | (total <= -offset)
picked = np.where(flags, total, -offset)
extremes = np.maximum(total, offset) - np.minimum(big, 12345678901) + np.abs(big)
narrowed = total.astype(np.int32)          # the low 32 bits, as NumPy's astype
