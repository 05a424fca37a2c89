# source: SciPy reference documentation, scipy.signal.find_peaks (local maxima by comparison with neighbouring samples, 'height' condition)
# local maxima of a smoothed noisy signal by neighbour comparison with a height threshold, and the zero-crossing rate
import numpy as np

np.random.seed(14)
N = 64
t = np.linspace(0.0, 1.0, N)
x = np.sin(2 * np.pi * 4 * t) * np.exp(-t) + 0.3 * np.sin(2 * np.pi * 11 * t) + 0.05 * np.random.randn(N)

is_peak = (x[1:-1] > x[:-2]) & (x[1:-1] >= x[2:]) & (x[1:-1] > 0.2)
peak_idx = np.nonzero(is_peak)[0] + 1
peak_heights = x[peak_idx]
n_peaks = peak_idx.size

signs = np.sign(x)
zero_crossing_rate = np.mean(np.abs(np.diff(signs)) > 0)
