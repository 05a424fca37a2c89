# int64 values narrow-integers cannot bound, computed exactly on the scalar unit (64-bit registers):
# arithmetic, floor division and remainder, extremes, comparisons, selections and casts, the unary
# and logical operators.
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
clipped = np.clip(total, -4_000_000_000_000, 6_000_000_000_000)
edges = np.array([0, 1, -1, 16777217, 16777219, -16777219, 2**62 + 2**38, -9223372036854775807 - 1, 3, -5],
                 dtype=np.int64)
as_float = np.concatenate([total, edges]).astype(np.float32)   # rounded to nearest even

# reductions of int64 values, over every axis and over some (contiguous or not)
cube = (np.random.rand(6, 5, 4).astype(np.float32) * 2e12 - 1e12).astype(np.int64)
cube_total = cube.sum()
cube_rows = cube.sum(axis=1)
cube_columns = np.max(cube, axis=(0, 2))
cube_low = cube.min(axis=0)
cube_products = (cube % 1000 + 1).prod(axis=2)
cube_span = cube.max() - cube.min()

# signs and edges: negative and zero divisors (NumPy gives 0), the smallest int64, products that
# wrap, narrower casts (low bits), booleans, one-element and broadcast operands, a loop counter
signs = np.array([7, -7, 0, 3, -3, -9223372036854775807 - 1, 5_000_000_000, -5_000_000_000], dtype=np.int64)
numerators = total[:8]
quotients = numerators // signs
remainders = numerators % signs
wrapped = total[:8] * 4_000_000_000 + signs * signs
small_casts = (total[:8].astype(np.int8).astype(np.int64) + total[:8].astype(np.uint8) +
               (total[:8] != 0).astype(np.int64) - signs.astype(bool))
one = total[:1]
broadcast_rows = total[:8].reshape(2, 4) - total[:4] + one
counted = np.zeros(8, dtype=np.int64)
for i in range(5):
    counted = counted + total[:8] * i

# the unary and logical operators: squares that wrap, signs, reciprocals (1 / x truncated, x != 0),
# and logical operators of integers
units = np.concatenate([signs[:2], signs[3:], np.array([1, -1], dtype=np.int64)])
squares = np.square(total[:8])
sign_sum = np.sign(total) + np.sign(-offset)
reciprocals = np.reciprocal(units)
logic = (np.logical_and(total, total % 3) ^ np.logical_or(total % 2, offset % 5) |
         np.logical_xor(total % 2, total > 0) & np.logical_not(total % 7))

# float results of such integers: float16 through float32 (exact), NumPy's float16 functions of int8,
# and the tests of finiteness every integer passes
halves = (total // 1_000_000_000).astype(np.float16)
tiny = (np.arange(30) % 9 - 4).astype(np.int8)
tiny_exp = np.exp(tiny)
finite = np.isfinite(total) & ~np.isnan(total) & ~np.isinf(total)
# constants beyond int32 stay int64 (not narrowed): float16 infinities, square roots
wide_constants = np.array([1, 1 << 40, -(1 << 33), 3], dtype=np.int64)
wide_halves = wide_constants.astype(np.float16)
wide_roots = np.sqrt(np.array([4, 1 << 40, 1 << 34, 9], dtype=np.int64))
