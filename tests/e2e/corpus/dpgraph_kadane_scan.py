# source: J. Bentley, Programming Pearls 2nd ed. (2000), Column 8 Algorithm Design Techniques (maximum-sum contiguous subvector, cumulative arrays and the scanning algorithm)
# Maximum contiguous subarray sum of each row, computed as a scan: prefix sums minus their running minimum.
import numpy as np

np.random.seed(13)
x = np.random.randn(16, 64)

prefix = np.concatenate([np.zeros((16, 1)), np.cumsum(x, axis=1)], axis=1)
running_min = np.minimum.accumulate(prefix[:, :-1], axis=1)
ending_here = prefix[:, 1:] - running_min
max_sum = ending_here.max(axis=1)
end_index = ending_here.argmax(axis=1)
