# Bitwise operators, shifts and integer powers, which the vector unit has no instructions for,
# computed on the scalar unit for every integer dtype: &, |, ^, ~, <<, >> and ** with NumPy's
# results at the edges (counts outside the width, negative values, wrapping powers).
import numpy as np

np.random.seed(11)
x = np.random.rand(64).astype(np.float32) * 2 - 1
wide = (np.arange(64, dtype=np.int64) * 7919 - 150000) * 123456789   # beyond int32
counts = np.arange(64, dtype=np.int64) * 13 % 70 - 3                 # -3..66: outside 0..63 as well
small = (x * 1000).astype(np.int32)
small_counts = (np.arange(64, dtype=np.int32) * 7) % 40

# int64
wide_and = wide & (counts * 99991)
wide_or = wide | counts
wide_xor = np.bitwise_xor(wide, wide >> 7)
wide_not = ~wide
wide_left = wide << counts
wide_right = np.right_shift(wide, counts)
wide_square = wide ** 2                        # wraps
wide_power = (counts % 5 - 2) ** (counts % 9)  # negative bases, exponent 0 included

# int32: the same operators, constant and per-element operands
masked = np.bitwise_and(small, 0xFF) | (small & small_counts)
flipped = np.invert(small) ^ 0x5A5A
shifted = (small << 3) - (small >> small_counts) + np.left_shift(small_counts, small_counts)
powers = (small % 7) ** (small_counts % 6)

# narrow dtypes keep their own width; booleans are logical
bytes_ = (np.arange(64) * 37 % 256).astype(np.uint8)
byte_ops = (~bytes_) ^ (bytes_ << 3) | (bytes_ >> 2)
tiny = (np.arange(64) % 11 - 5).astype(np.int8)
tiny_ops = (tiny << 5) + (tiny >> 1) + tiny ** 3
mask = np.invert(small > 0) | (x > 0.5) ^ (small_counts > 20)

# a loop whose counter shifts and masks
acc = np.zeros(8, dtype=np.int64)
for k in range(8):
    acc = acc ^ (wide[:8] >> k) & (1 << k)

# ~ of a boolean-mask selection of integers, and integer casts that keep the low bits
selected = np.zeros(64, dtype=np.int32)
selected[small > 0] = ~small[small > 0]
selected_sum = (~small[small > 0]).sum()
low_bits = (small * 1000).astype(np.int16) + small.astype(np.int8) + small.astype(np.uint8)
