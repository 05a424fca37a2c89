# Elementwise work computed inside the reduction that reads it (O2): dot products of rows, squared
# deviations from a kept-dims mean (one value per row), rows weighted by a broadcast row, sums over
# everything (in stages), slices reduced over their rows with a per-channel row, a value per row and
# a value per image, float16 reductions, max/min/prod of expressions, short padded rows under log
# and division, a one-element operand, a loop counter, and a group whose value is also read later.
# e2e-also: --opt-level=O1
# e2e-also: --auto-mixed-precision=O2
import numpy as np

np.random.seed(5)
x = np.random.rand(96, 1000).astype(np.float32) - 0.5
y = np.random.rand(96, 1000).astype(np.float32) + 0.5
w = np.random.rand(1000).astype(np.float32)
scale = np.random.rand(1).astype(np.float32) + 1.0

dots = np.sum(x * y, axis=1)
mu = x.mean(axis=1, keepdims=True)
variance = np.mean((x - mu) ** 2, axis=1)
weighted = (x * w).sum(axis=-1)
total = np.sum(x * y * scale)
peak = np.max(np.abs(x - 0.25), axis=1)
low = np.min(x * y + 1.0, axis=0)

# images [N, HW, C]: reduced over their rows
img = np.random.rand(4, 300, 48).astype(np.float32)
gamma = np.random.rand(48).astype(np.float32) + 0.5
per_row = np.random.rand(4, 300, 1).astype(np.float32)
per_image = np.random.rand(4, 1, 1).astype(np.float32)
pooled = np.sum(img * gamma, axis=1)
row_scaled = np.mean(img * per_row - per_image, axis=1)
energy = np.sum((img - img.mean(axis=(0, 1))) ** 2, axis=(0, 1))

# short padded rows: the padding is computed on, never reduced
short = np.random.rand(50, 37).astype(np.float32) + 0.1
logs = np.sum(np.log(short) / (short + 0.5), axis=1)
products = np.prod(short * 0.5 + 0.75, axis=1)

# float16
h = (np.random.rand(64, 512).astype(np.float32) - 0.5).astype(np.float16)
g = (np.random.rand(64, 512).astype(np.float32) + 0.5).astype(np.float16)
half_dots = np.sum(h * g, axis=1)
half_max = np.max(h * g - h, axis=1)

# a loop counter inside the expression
acc = np.zeros(1000, dtype=np.float32)
for i in range(3):
    acc = acc + np.sum(x * (i + 1) + i, axis=0)

# the group's value is read again later: it is written back and reduced separately
sq = x * x
norms = np.sqrt(np.sum(sq, axis=1))
unit = sq / (norms[:, None] + 1.0)
