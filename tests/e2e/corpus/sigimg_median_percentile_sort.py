# source: NumPy reference documentation, numpy.percentile, method='linear' (Hyndman & Fan 1996, definition 7)
# median, quartiles and interquartile range of each row, computed by sorting and linear interpolation between order statistics
import numpy as np

np.random.seed(5)
rows, n = 8, 37
samples = np.random.randn(rows, n) * np.arange(1, rows + 1)[:, None] + np.random.rand(rows, 1)

s = np.sort(samples, axis=1)


def percentile_sorted(sorted_rows, q):
    pos = (q / 100.0) * (sorted_rows.shape[1] - 1)
    lo = int(np.floor(pos))
    hi = min(lo + 1, sorted_rows.shape[1] - 1)
    frac = pos - lo
    return sorted_rows[:, lo] + frac * (sorted_rows[:, hi] - sorted_rows[:, lo])


q1 = percentile_sorted(s, 25.0)
median = percentile_sorted(s, 50.0)
q3 = percentile_sorted(s, 75.0)
iqr = q3 - q1
