# e2e: --entry=stats --input=x:float32[24,40]
# Reductions over different axes with keepdims, variance and argmax.
import numpy as np


def stats(x):
    col_mean = x.mean(axis=0)
    row_var = np.var(x, axis=1, keepdims=True)
    peak = np.max(x)
    where_peak = np.argmax(x, axis=1)
    return col_mean, row_var, peak, where_peak
