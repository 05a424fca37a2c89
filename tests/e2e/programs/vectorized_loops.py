# Element loops that run as array operations at O2 (kept as loops at O0): stores at offsets and
# strides, 2-D nests with broadcasts and transposes, reductions into scalars and rows, a maximum,
# scans, conditional expressions and ifs, math functions, the index as a value, names bound in the body
# (their last values after the loop), and a space loop inside a time loop.
import math

import numpy as np

np.random.seed(7)
a = np.random.rand(64, 32).astype(np.float32) - 0.25
b = np.random.rand(32).astype(np.float32)

rows = np.zeros(64, dtype=np.float32)
for i in range(64):
    for j in range(32):
        rows[i] += a[i, j] * b[j]

scaled_t = np.zeros((32, 64), dtype=np.float32)
for i in range(64):
    for j in range(32):
        scaled_t[j, i] = a[i, j] * 2 + b[j]

energy = 0.0
for i in range(64):
    t = a[i, 3] * 0.5
    energy += t * t
last_t = t * 1

prefix = np.random.rand(100).astype(np.float32)
for i in range(1, 100):
    prefix[i] = prefix[i - 1] + prefix[i]

growth = np.random.rand(40).astype(np.float32) * 0.1 + 0.95
for i in range(1, 40):
    growth[i] = growth[i - 1] * growth[i]

shifted = np.random.rand(100).astype(np.float32)
for i in range(0, 99):
    shifted[i] = shifted[i + 1] * 2.0 - shifted[i]

peak = -1.0
for i in range(64):
    peak = max(peak, a[i, 0])

picked = np.zeros(50, dtype=np.float32)
for k in range(50):
    picked[k] = math.sqrt(abs(a[k, 1])) if a[k, 2] > 0.25 else -a[k, 1]

weighted = np.zeros(32, dtype=np.float32)
for i in range(32):
    r = 31 - i
    weighted[i] = b[r] * i + r

pairs = np.arange(12, dtype=np.int32) * 3 - 7
for i in range(0, 12, 2):
    pairs[i] += pairs[i + 1]

heat = np.random.rand(12, 48).astype(np.float32)
for step in range(11):
    for x in range(1, 47):
        heat[step + 1, x] = heat[step, x] + 0.2 * (heat[step, x - 1] - 2 * heat[step, x] + heat[step, x + 1])

signs = np.zeros(64, dtype=np.float32)
counts = np.zeros(64, dtype=np.float32)
for i in range(64):
    if a[i, 5] > 0:
        signs[i] = a[i, 5] * 2
        counts[i] += 1.0
    else:
        signs[i] = -a[i, 5]
