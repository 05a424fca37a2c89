# e2e: --entry=f --input=a:float32[40] --input=m:float32[4,16] --input=w:float32[16]
# Statistics and signal functions of frontend/numpy_prelude.py: covariance and correlation,
# medians, percentiles and histograms (by sorting and counting), convolution, interpolation,
# weighted averages and the NaN-ignoring, NaN-aware and tolerance functions.
import numpy as np


def f(a, m, w):
    counts, edges = np.histogram(a, bins=5)
    fixed, _ = np.histogram(a, bins=4, range=(0.0, 1.0))
    density, _ = np.histogram(a, bins=4, range=(0.0, 1.0), density=True)
    mean, total = np.average(m, axis=1, weights=w, returned=True)
    b = np.where(a > 0.8, np.nan, a)
    return (np.cov(m), np.cov(m, rowvar=False, bias=True), np.corrcoef(m), np.median(a), np.median(m, axis=1),
            np.percentile(a, 30), np.quantile(m, 0.75, axis=0), counts, edges, fixed, density,
            np.convolve(a, w[:5]), np.convolve(a, w[:5], mode='same'), np.convolve(a, w[:5], mode='valid'),
            np.correlate(a, w[:3]), np.interp(m[0] * 1.2 - 0.1, np.sort(w), m[1]), np.searchsorted(np.sort(w), a[:6]),
            mean, total, np.average(a), np.trapz(m, axis=1), np.trapz(a, dx=0.5), np.nansum(b), np.nanmean(b),
            np.nanmax(b), np.ptp(m, axis=0), np.count_nonzero(m > 0.5, axis=1), np.fmax(b, 0.5), np.fmin(b, 0.5),
            np.logaddexp(a, a[::-1]), np.isclose(a, a + 1e-7), np.allclose(m, m), np.deg2rad(a * 360),
            np.rad2deg(a), np.sinc(a - 0.5), np.heaviside(a - 0.5, 0.25))
