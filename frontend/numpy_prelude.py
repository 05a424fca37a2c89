# NumPy functions written in the Python pyasc compiles (frontend/NumpyPrelude.cpp embeds this file).
# A call np.NAME(...) of a function defined here runs it as a helper: `np` is NumPy whatever the
# program imported, and what it builds, warns and reports is located at the call. A definition named
# linalg_NAME is np.linalg.NAME, random_NAME np.random.NAME; names starting with '_' are private. Each function follows NumPy's
# documented semantics for the arguments it accepts; docs/numpy-support.md lists them.
import numpy as np


def _axis(axis, ndim):
    if axis < 0:
        return axis + ndim
    return axis


def _move_to_front(ndim, axis):
    perm = (axis,)
    for d in range(ndim):
        if d != axis:
            perm = perm + (d,)
    return perm


def _move_back(ndim, axis):
    perm = ()
    for d in range(ndim):
        if d == axis:
            perm = perm + (0,)
        elif d < axis:
            perm = perm + (d + 1,)
        else:
            perm = perm + (d,)
    return perm


def _flip_axis(m, axis):
    axis = _axis(axis, m.ndim)
    if axis == 0:
        return m[::-1]
    front = np.transpose(m, _move_to_front(m.ndim, axis))
    return np.transpose(front[::-1], _move_back(m.ndim, axis))


def flip(m, axis=None):
    """axis None reverses every axis"""
    m = np.asarray(m)
    if axis is None:
        return m.ravel()[::-1].reshape(m.shape)
    return _flip_axis(m, axis)


def fliplr(m):
    return np.asarray(m)[:, ::-1]


def flipud(m):
    return np.asarray(m)[::-1]


def rot90(m, k=1):
    """k quarter turns in the plane of the first two axes"""
    m = np.asarray(m)
    k = k % 4
    if k == 0:
        return m
    if k == 2:
        return m[::-1, ::-1]
    if k == 1:
        return np.swapaxes(m, 0, 1)[::-1]
    return np.swapaxes(m[::-1], 0, 1)


def swapaxes(a, axis1, axis2):
    a = np.asarray(a)
    axis1 = _axis(axis1, a.ndim)
    axis2 = _axis(axis2, a.ndim)
    perm = ()
    for d in range(a.ndim):
        if d == axis1:
            perm = perm + (axis2,)
        elif d == axis2:
            perm = perm + (axis1,)
        else:
            perm = perm + (d,)
    return np.transpose(a, perm)


def moveaxis(a, source, destination):
    a = np.asarray(a)
    source = _axis(source, a.ndim)
    destination = _axis(destination, a.ndim)
    rest = _move_to_front(a.ndim, source)[1:]
    perm = rest[:destination] + (source,) + rest[destination:]
    return np.transpose(a, perm)


def _roll_axis(a, shift, axis):
    n = a.shape[axis]
    s = shift % n
    if s == 0:
        return a
    front = np.transpose(a, _move_to_front(a.ndim, axis))
    rolled = np.concatenate((front[n - s:], front[:n - s]))
    return np.transpose(rolled, _move_back(a.ndim, axis))


def roll(a, shift, axis=None):
    """a compile-time shift"""
    a = np.asarray(a)
    if axis is None:
        return _roll_axis(a.ravel(), shift, 0).reshape(a.shape)
    return _roll_axis(a, shift, _axis(axis, a.ndim))


def tril(m, k=0):
    m = np.asarray(m)
    rows = np.arange(m.shape[-2])[:, None]
    cols = np.arange(m.shape[-1])[None, :]
    return np.where(cols <= rows + k, m, np.zeros_like(m))


def triu(m, k=0):
    m = np.asarray(m)
    rows = np.arange(m.shape[-2])[:, None]
    cols = np.arange(m.shape[-1])[None, :]
    return np.where(cols >= rows + k, m, np.zeros_like(m))


def tri(N, M=None, k=0, dtype=float):
    if M is None:
        M = N
    rows = np.arange(N)[:, None]
    cols = np.arange(M)[None, :]
    return (cols <= rows + k).astype(dtype)


def diag(v, k=0):
    """the diagonal of a 2-d array, or a 2-d array with a 1-d one on diagonal k"""
    v = np.asarray(v)
    if v.ndim == 1:
        n = v.shape[0] + abs(k)
        rows = np.arange(n)[:, None]
        cols = np.arange(n)[None, :]
        line = np.concatenate((v, np.zeros(abs(k), v.dtype)))
        if k >= 0:
            line = line[:, None]
        else:
            line = line[None, :]
        return np.where(cols == rows + k, line, np.zeros((n, n), v.dtype))
    return diagonal(v, k)


def diagflat(v, k=0):
    return diag(np.asarray(v).ravel(), k)


def diagonal(a, offset=0):
    """of a 2-d array: a strided slice of its flattened elements"""
    a = np.asarray(a)
    cols = a.shape[1]
    if offset >= 0:
        count = min(a.shape[0], cols - offset)
        start = offset
    else:
        count = min(a.shape[0] + offset, cols)
        start = -offset * cols
    # a[i, i + offset] is element start + i * (cols + 1) of the flattened array
    return a.reshape(-1)[start:start + (count - 1) * (cols + 1) + 1:cols + 1]


def trace(a, offset=0):
    return diagonal(a, offset).sum()


def fill_diagonal(a, val):
    """in place, as NumPy; val a number or an array that broadcasts"""
    rows = np.arange(a.shape[0])[:, None]
    cols = np.arange(a.shape[1])[None, :]
    a[...] = np.where(rows == cols, val, a)


def outer(a, b):
    return np.asarray(a).ravel()[:, None] * np.asarray(b).ravel()[None, :]


def inner(a, b):
    a = np.asarray(a)
    b = np.asarray(b)
    if a.ndim == 0 or b.ndim == 0:
        return a * b
    return np.tensordot(a, b, axes=([a.ndim - 1], [b.ndim - 1]))


def vdot(a, b):
    return np.dot(np.asarray(a).ravel(), np.asarray(b).ravel())


def kron(a, b):
    """1-d and 2-d arrays"""
    a = np.asarray(a)
    b = np.asarray(b)
    if a.ndim == 1 and b.ndim == 1:
        return (a[:, None] * b[None, :]).ravel()
    p = a[:, None, :, None] * b[None, :, None, :]
    return p.reshape(a.shape[0] * b.shape[0], a.shape[1] * b.shape[1])


def atleast_1d(a):
    a = np.asarray(a)
    if a.ndim == 0:
        return a.reshape(1)
    return a


def atleast_2d(a):
    a = np.asarray(a)
    if a.ndim == 0:
        return a.reshape(1, 1)
    if a.ndim == 1:
        return a[None, :]
    return a


def vstack(tup):
    """a list or tuple of arrays"""
    arrays = ()
    for t in tup:
        arrays = arrays + (atleast_2d(t),)
    return np.concatenate(arrays, axis=0)


def hstack(tup):
    arrays = ()
    for t in tup:
        arrays = arrays + (atleast_1d(t),)
    if arrays[0].ndim == 1:
        return np.concatenate(arrays, axis=0)
    return np.concatenate(arrays, axis=1)


def column_stack(tup):
    arrays = ()
    for t in tup:
        t = np.asarray(t)
        if t.ndim < 2:
            t = t.reshape(-1, 1)
        arrays = arrays + (t,)
    return np.concatenate(arrays, axis=1)


def row_stack(tup):
    return vstack(tup)


def dstack(tup):
    arrays = ()
    for t in tup:
        t = atleast_2d(t)
        arrays = arrays + (t.reshape(t.shape[0], t.shape[1], -1),)
    return np.concatenate(arrays, axis=2)


def insert(arr, obj, values, axis=None):
    """a compile-time index obj and one value (or row) to insert"""
    arr = np.asarray(arr)
    if axis is None:
        arr = arr.ravel()
        axis = 0
    axis = _axis(axis, arr.ndim)
    n = arr.shape[axis]
    if obj < 0:
        obj = obj + n
    front = np.transpose(arr, _move_to_front(arr.ndim, axis))
    row = np.broadcast_to(np.asarray(values).astype(arr.dtype), (1,) + front.shape[1:])
    joined = np.concatenate((front[:obj], row, front[obj:]))
    return np.transpose(joined, _move_back(arr.ndim, axis))


def append(arr, values, axis=None):
    arr = np.asarray(arr)
    values = np.asarray(values)
    if axis is None:
        return np.concatenate((arr.ravel(), values.ravel()))
    return np.concatenate((arr, values), axis=axis)


def _triangle_indices(n, k, m, upper):
    if m is None:
        m = n
    rows = ()
    cols = ()
    for i in range(n):
        first = max(i + k, 0) if upper else 0
        last = m if upper else min(i + k + 1, m)
        for j in range(first, last):
            rows = rows + (i,)
            cols = cols + (j,)
    return (np.array(rows), np.array(cols))


def triu_indices(n, k=0, m=None):
    """int64 constants, computed at compile time"""
    return _triangle_indices(n, k, m, True)


def tril_indices(n, k=0, m=None):
    """int64 constants, computed at compile time"""
    return _triangle_indices(n, k, m, False)


def diag_indices(n, ndim=2):
    index = np.arange(n)
    if ndim == 2:
        return (index, index)
    return (index, index, index)


def diff(a, n=1, axis=-1):
    """n a compile-time count"""
    a = np.asarray(a)
    axis = _axis(axis, a.ndim)
    front = np.transpose(a, _move_to_front(a.ndim, axis))
    for _ in (0,) * n:
        if front.dtype == np.bool_:
            front = front[1:] != front[:-1]
        else:
            front = front[1:] - front[:-1]
    return np.transpose(front, _move_back(a.ndim, axis))


def ediff1d(ary):
    a = np.asarray(ary).ravel()
    return a[1:] - a[:-1]


def trapz(y, x=None, dx=1.0, axis=-1):
    """x None (spacing dx) or a 1-d array along the axis"""
    y = np.asarray(y)
    axis = _axis(axis, y.ndim)
    front = np.transpose(y, _move_to_front(y.ndim, axis))
    mean = (front[1:] + front[:-1]) / 2.0
    if x is None:
        total = (mean * dx).sum(axis=0)
    else:
        x = np.asarray(x)
        d = x[1:] - x[:-1]
        if front.ndim > 1:
            d = d.reshape((d.shape[0],) + (1,) * (front.ndim - 1))
        total = (mean * d).sum(axis=0)
    return total


def trapezoid(y, x=None, dx=1.0, axis=-1):
    return trapz(y, x, dx, axis)


def count_nonzero(a, axis=None):
    """an int64 count"""
    a = np.asarray(a)
    return (a != 0).astype(np.int64).sum(axis=axis)


def ptp(a, axis=None):
    a = np.asarray(a)
    return a.max(axis=axis) - a.min(axis=axis)


def average(a, axis=None, weights=None, returned=False):
    """weights a 1-d array along axis, or the shape of a"""
    a = np.asarray(a)
    if weights is None:
        if returned:
            mean = a.mean(axis=axis)
            return (mean, np.full_like(mean, a.size / mean.size))
        return a.mean(axis=axis)
    w = np.asarray(weights)
    if w.ndim == 1 and a.ndim > 1:
        shape = ()
        for d in range(a.ndim):
            shape = shape + ((w.shape[0] if d == _axis(axis, a.ndim) else 1),)
        w = w.reshape(shape)
    total = (w * np.ones_like(a)).sum(axis=axis)
    if returned:
        return ((a * w).sum(axis=axis) / total, total)
    return (a * w).sum(axis=axis) / total


def deg2rad(x):
    return np.asarray(x) * (np.pi / 180.0)


def radians(x):
    return deg2rad(x)


def rad2deg(x):
    return np.asarray(x) * (180.0 / np.pi)


def degrees(x):
    return rad2deg(x)


def sinc(x):
    """sin(πx)/(πx), 1 at 0"""
    y = np.pi * np.where(x == 0, 1.0e-20, x)
    return np.sin(y) / y


def heaviside(x1, x2):
    return np.where(x1 < 0, np.zeros_like(x1), np.where(x1 > 0, np.ones_like(x1), x2 * np.ones_like(x1)))


def fmax(x1, x2):
    return np.where(np.isnan(x2), x1, np.where(np.isnan(x1), x2, np.maximum(x1, x2)))


def fmin(x1, x2):
    return np.where(np.isnan(x2), x1, np.where(np.isnan(x1), x2, np.minimum(x1, x2)))


def logaddexp(x1, x2):
    """log(e^x1 + e^x2) without overflow"""
    hi = np.maximum(x1, x2)
    return hi + np.log1p(np.exp(-np.abs(x1 - x2)))


def logaddexp2(x1, x2):
    hi = np.maximum(x1, x2)
    return hi + np.log1p(np.exp2(-np.abs(x1 - x2))) / np.log(2.0)


def isclose(a, b, rtol=1e-05, atol=1e-08):
    return np.abs(a - b) <= atol + rtol * np.abs(b)


def allclose(a, b, rtol=1e-05, atol=1e-08):
    return isclose(a, b, rtol, atol).all()


def array_equal(a1, a2):
    return (np.asarray(a1) == np.asarray(a2)).all()


def nansum(a, axis=None):
    a = np.asarray(a)
    return np.where(np.isnan(a), np.zeros_like(a), a).sum(axis=axis)


def nanmean(a, axis=None):
    a = np.asarray(a)
    kept = ~np.isnan(a)
    return np.where(kept, a, np.zeros_like(a)).sum(axis=axis) / kept.astype(a.dtype).sum(axis=axis)


def nanmax(a, axis=None):
    a = np.asarray(a)
    return np.where(np.isnan(a), -np.inf, a).max(axis=axis)


def nanmin(a, axis=None):
    a = np.asarray(a)
    return np.where(np.isnan(a), np.inf, a).min(axis=axis)


def cov(m, y=None, rowvar=True, bias=False, ddof=None):
    """float64 (float32 on the NPU) as NumPy; rows are the variables unless rowvar=False"""
    x = atleast_2d(m)
    if not rowvar and x.shape[0] != 1:
        x = x.T
    if y is not None:
        y = atleast_2d(y)
        if not rowvar and y.shape[0] != 1:
            y = y.T
        x = np.concatenate((x, y), axis=0)
    if ddof is None:
        ddof = 0 if bias else 1
    x = x.astype(np.float64)
    xc = x - x.mean(axis=1, keepdims=True)
    c = (xc @ xc.T) / (x.shape[1] - ddof)
    if np.asarray(m).ndim == 1 and y is None:
        return c.reshape(())
    return c


def corrcoef(x, y=None, rowvar=True):
    """cov divided by the standard deviations, clipped to [-1, 1]"""
    c = cov(x, y, rowvar)
    if c.ndim == 0:
        return c / c
    d = np.sqrt(diagonal(c))
    r = c / d[:, None] / d[None, :]
    return np.clip(r, -1, 1)


def vander(x, N=None, increasing=False):
    """a 1-d x; N columns of decreasing (or increasing) powers"""
    x = np.asarray(x)
    if N is None:
        N = x.shape[0]
    powers = np.arange(N)
    if not increasing:
        powers = powers[::-1]
    return x[:, None] ** powers[None, :].astype(x.dtype)


def _window_points(M):
    # NumPy's windows sample n = 1 - M, 3 - M, ..., M - 1 (none for M < 1, one point for M = 1)
    return np.arange(1 - M, M, 2)


def hanning(M):
    """a compile-time M; 0.5 + 0.5 cos(pi n / (M - 1)) at NumPy's points"""
    if M < 2:
        return np.ones(max(M, 0))
    return 0.5 + 0.5 * np.cos(np.pi * _window_points(M) / (M - 1))


def hamming(M):
    """a compile-time M; 0.54 + 0.46 cos(pi n / (M - 1)) at NumPy's points"""
    if M < 2:
        return np.ones(max(M, 0))
    return 0.54 + 0.46 * np.cos(np.pi * _window_points(M) / (M - 1))


def blackman(M):
    """a compile-time M; 0.42 + 0.5 cos(pi n / (M - 1)) + 0.08 cos(2 pi n / (M - 1)) at NumPy's points"""
    if M < 2:
        return np.ones(max(M, 0))
    n = _window_points(M)
    return 0.42 + 0.5 * np.cos(np.pi * n / (M - 1)) + 0.08 * np.cos(2.0 * np.pi * n / (M - 1))


def bartlett(M):
    """a compile-time M; the triangle 1 - abs(n) / (M - 1) at NumPy's points"""
    if M < 2:
        return np.ones(max(M, 0))
    n = _window_points(M)
    return np.where(n <= 0, 1 + n / (M - 1), 1 - n / (M - 1))


def meshgrid(x, y, z=None, indexing='xy'):
    """two or three 1-d arrays; indexing 'xy' or 'ij'; broadcast views, not copies"""
    x = np.asarray(x).ravel()
    y = np.asarray(y).ravel()
    if z is None:
        if indexing == 'ij':
            shape = (x.shape[0], y.shape[0])
            return (np.broadcast_to(x[:, None], shape), np.broadcast_to(y[None, :], shape))
        shape = (y.shape[0], x.shape[0])
        return (np.broadcast_to(x[None, :], shape), np.broadcast_to(y[:, None], shape))
    z = np.asarray(z).ravel()
    if indexing == 'ij':
        shape = (x.shape[0], y.shape[0], z.shape[0])
        return (np.broadcast_to(x[:, None, None], shape), np.broadcast_to(y[None, :, None], shape),
                np.broadcast_to(z[None, None, :], shape))
    shape = (y.shape[0], x.shape[0], z.shape[0])
    return (np.broadcast_to(x[None, :, None], shape), np.broadcast_to(y[:, None, None], shape),
            np.broadcast_to(z[None, None, :], shape))


def _index_grid(shape, axis, dtype):
    ones = (1,) * len(shape)
    line = np.arange(shape[axis], dtype=dtype).reshape(ones[:axis] + (shape[axis],) + ones[axis + 1:])
    return np.broadcast_to(line, shape)


def indices(dimensions, dtype=int):
    """a tuple of extents"""
    return np.stack([_index_grid(tuple(dimensions), k, dtype) for k in range(len(dimensions))])


def fromfunction(function, shape, dtype=float):
    """function called once, with one array of indices per axis (broadcast views)"""
    return function(*[_index_grid(tuple(shape), k, dtype) for k in range(len(shape))])


def repeat(a, repeats, axis=None):
    """repeats a compile-time int"""
    a = np.asarray(a)
    if axis is None:
        a = a.ravel()
        axis = 0
    axis = _axis(axis, a.ndim)
    front = np.transpose(a, _move_to_front(a.ndim, axis))
    spread = np.broadcast_to(front[:, None], (front.shape[0], repeats) + front.shape[1:])
    merged = spread.reshape((front.shape[0] * repeats,) + front.shape[1:])
    return np.transpose(merged, _move_back(a.ndim, axis))


def convolve(a, v, mode='full'):
    """a 1-d a and v; mode 'full', 'same' or 'valid', by shifted slices"""
    a = np.asarray(a)
    v = np.asarray(v)
    if v.shape[0] > a.shape[0]:
        a, v = v, a
    n = a.shape[0]
    k = v.shape[0]
    padded = np.concatenate((np.zeros(k - 1, a.dtype), a, np.zeros(k - 1, a.dtype)))
    full = padded[k - 1:k - 1 + n + k - 1] * v[0]
    for j in range(1, k):
        full = full + padded[k - 1 - j:k - 1 - j + n + k - 1] * v[j]
    if mode == 'full':
        return full
    if mode == 'same':
        start = (k - 1) // 2
        return full[start:start + n]
    return full[k - 1:n]


def correlate(a, v, mode='valid'):
    return convolve(a, np.asarray(v)[::-1], mode)


def searchsorted(a, v, side='left'):
    """a sorted 1-d a; counts by comparison (side left or right)"""
    a = np.asarray(a)
    v = np.asarray(v)
    if side == 'left':
        return (a[None, :] < v.reshape(-1)[:, None]).astype(np.int64).sum(axis=1).reshape(v.shape)
    return (a[None, :] <= v.reshape(-1)[:, None]).astype(np.int64).sum(axis=1).reshape(v.shape)


def interp(x, xp, fp):
    """a sorted 1-d xp; fp[0] and fp[-1] outside it"""
    x = np.asarray(x)
    xp = np.asarray(xp)
    fp = np.asarray(fp)
    n = xp.shape[0]
    i = np.clip(searchsorted(xp, x, 'right') - 1, 0, n - 2)
    x0 = xp[i]
    x1 = xp[i + 1]
    y0 = fp[i]
    y1 = fp[i + 1]
    y = y0 + (x - x0) * (y1 - y0) / (x1 - x0)
    return np.where(x <= xp[0], fp[0], np.where(x >= xp[n - 1], fp[n - 1], y))


def cross(a, b):
    """of 3-vectors along the last axis"""
    a = np.asarray(a)
    b = np.asarray(b)
    x = a[..., 1] * b[..., 2] - a[..., 2] * b[..., 1]
    y = a[..., 2] * b[..., 0] - a[..., 0] * b[..., 2]
    z = a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]
    return np.stack((x, y, z), axis=-1)


def _quantile_sorted(s, q):
    n = s.shape[0]
    pos = q * (n - 1)
    lo = int(pos)
    hi = min(lo + 1, n - 1)
    frac = pos - lo
    return s[lo] + (s[hi] - s[lo]) * frac


def percentile(a, q, axis=None):
    """a number q; linear interpolation between the sorted neighbours (NumPy's default)"""
    s = np.sort(np.asarray(a), axis=axis)
    if axis is None:
        return _quantile_sorted(s, q / 100.0)
    return _quantile_sorted(np.transpose(s, _move_to_front(s.ndim, _axis(axis, s.ndim))), q / 100.0)


def quantile(a, q, axis=None):
    return percentile(a, q * 100.0, axis)


def median(a, axis=None):
    """the 50th percentile: the mean of the middle pair for an even count"""
    return percentile(a, 50.0, axis)


def bincount(x, weights=None, minlength=None):
    """x a 1-d array of non-negative integers; minlength required (NumPy's length, max(x) + 1 when larger, is known only at run time): the counts of the values 0 .. minlength - 1, a value at or beyond minlength not counted; weights summed per value (float64, as NumPy does)"""
    if minlength is None:
        _refuse("needs minlength=N: its length, max(x) + 1, is known only at run time; give the number of bins (values at or beyond it are not counted)")
    if minlength < 1:
        _refuse("needs minlength of 1 or more (the number of bins: values at or beyond it are not counted)")
    x = np.asarray(x)
    if x.ndim != 1:
        _refuse("takes a 1-d array; flatten it with .ravel()")
    if x.dtype == np.float16 or x.dtype == np.float32 or x.dtype == np.float64:
        _refuse("counts integers; convert the values with .astype(np.int64)")
    hits = x[:, None] == np.arange(minlength)[None, :]
    if weights is None:
        return hits.astype(np.int64).sum(axis=0)
    weights = np.asarray(weights)
    if weights.shape != x.shape:
        _refuse("takes weights of the shape of x (one weight per value)")
    return np.where(hits, weights.astype(np.float64)[:, None], 0.0).sum(axis=0)  # NumPy sums weights in float64


def histogram(a, bins=10, range=None, density=False):
    """bins an int; the edges of np.linspace(lo, hi, bins + 1); a value is counted in the bin of the inner edges at or below it (the last bin holds its right edge); density divides by count and width"""
    a = np.asarray(a).ravel()
    if range is None:
        lo = a.min()
        hi = a.max()
    else:
        lo = range[0]
        hi = range[1]
    # the edges np.linspace(lo, hi, bins + 1) gives; a value's bin is the count of inner edges at
    # or below it, so that bins and edges agree exactly (the last bin holds its right edge)
    steps = np.arange(bins + 1)
    edges = np.where(steps == bins, hi, lo + steps * ((hi - lo) / bins))
    index = (a[:, None] >= edges[None, 1:bins]).astype(np.int64).sum(axis=1)
    inside = (a >= lo) & (a <= hi)
    hits = (index[:, None] == np.arange(bins)[None, :]) & inside[:, None]
    counts = hits.astype(np.int64).sum(axis=0)
    if density:
        return counts / counts.sum() / (edges[1:] - edges[:-1]), edges
    return counts, edges


def linalg_det(a):
    """Gaussian elimination with partial pivoting over the last two axes (stacks of matrices too)"""
    # the pivot is found at run time, and rows are swapped by selection
    a = np.asarray(a).astype(np.float64)
    n = a.shape[-1]
    rows = np.arange(n)
    det = np.ones(a.shape[:-2])
    for k in range(n):
        p = np.argmax(np.abs(a[..., k:, k]), axis=-1) + k
        pivot_row = (rows == p[..., None])[..., None]
        row_p = np.where(pivot_row, a, 0.0).sum(axis=-2)
        det = det * np.where(p != k, -1.0, 1.0) * row_p[..., k]
        a = np.where(pivot_row, a[..., k:k + 1, :], a)
        a = np.where((rows == k)[:, None], row_p[..., None, :], a)
        below = (rows > k)[:, None]
        a = a - np.where(below, a[..., :, k:k + 1] / row_p[..., None, k:k + 1], 0.0) * row_p[..., None, :]
    return det


def linalg_solve(a, b):
    """a 2-d a; b a vector or a matrix; Gaussian elimination with partial pivoting, then back substitution"""
    a = np.asarray(a).astype(np.float64)
    b = np.asarray(b).astype(np.float64)
    vector = b.ndim == 1
    if vector:
        b = b[:, None]
    n = a.shape[0]
    for k in range(n):
        p = np.argmax(np.abs(a[k:, k])) + k
        pivot_row = (np.arange(n) == p)[:, None]
        row_a = np.where(pivot_row, a, np.zeros_like(a)).sum(axis=0)
        row_b = np.where(pivot_row, b, np.zeros_like(b)).sum(axis=0)
        a = np.where(pivot_row, a[k][None, :], a)
        b = np.where(pivot_row, b[k][None, :], b)
        a[k] = row_a
        b[k] = row_b
        below = np.arange(n)[:, None] > k
        factor = np.where(below, a[:, k:k + 1] / row_a[k], 0.0)
        a = a - factor * row_a[None, :]
        b = b - factor * row_b[None, :]
    x = np.zeros_like(b)
    for i in range(n - 1, -1, -1):
        x[i] = (b[i] - a[i, i + 1:] @ x[i + 1:]) / a[i, i]
    if vector:
        return x[:, 0]
    return x


def linalg_inv(a):
    """solve(a, I)"""
    a = np.asarray(a)
    return linalg_solve(a, np.eye(a.shape[0]))


def linalg_cholesky(a):
    """the lower factor of a positive definite matrix, column by column"""
    a = np.asarray(a).astype(np.float64)
    n = a.shape[0]
    L = np.zeros_like(a)
    for j in range(n):
        d = np.sqrt(a[j, j] - L[j, :j] @ L[j, :j])
        L[j, j] = d
        L[j + 1:, j] = (a[j + 1:, j] - L[j + 1:, :j] @ L[j, :j]) / d
    return L


def linalg_matrix_power(a, n):
    """a non-negative compile-time n"""
    a = np.asarray(a)
    result = np.eye(a.shape[0], dtype=a.dtype)
    for _ in range(n):
        result = result @ a
    return result


def _jacobi_rounds(n):
    # the round-robin schedule of cyclic Jacobi: n - 1 rounds (n even; one index rests in each round
    # when n is odd) of disjoint pairs p[k] < q[k] that together meet every pair once; each round's
    # indices in the order p + q + rest, and that order's inverse
    m = n + n % 2
    others = tuple(range(1, m))
    rounds = []
    for r in range(m - 1):
        ring = (0,) + others[r:] + others[:r]
        pairs = [(min(ring[k], ring[m - 1 - k]), max(ring[k], ring[m - 1 - k])) for k in range(m // 2)]
        p = [i for i, j in pairs if j < n]
        q = [j for i, j in pairs if j < n]
        rest = [i for i in range(n) if i not in p and i not in q]
        order = p + q + rest
        inverse = [sum([k for k in range(n) if order[k] == i]) for i in range(n)]
        if len(p) > 0:
            rounds.append((p, q, rest, inverse))
    return rounds


def _jacobi_rotation(x, y, z):
    # cosines and sines of the rotations that zero z, the coupling of x and y (Golub & Van Loan, 8.5.2)
    coupled = z != 0
    tau = (y - x) / (2 * np.where(coupled, z, 1.0))
    t = np.where(coupled, np.where(tau >= 0, 1.0, -1.0) / (np.abs(tau) + np.hypot(1.0, tau)), 0.0)
    c = 1.0 / np.sqrt(1.0 + t * t)
    return c, c * t


def _rotate_columns(m, p, q, rest, inverse, c, s):
    mp = m[:, p]
    mq = m[:, q]
    parts = [c * mp - s * mq, s * mp + c * mq]
    if len(rest) > 0:
        parts = parts + [m[:, rest]]
    return np.concatenate(parts, axis=1)[:, inverse]


def _linalg_float(a):
    # float32 stays float32, as LAPACK's single precision; anything else computes in float64
    a = np.asarray(a)
    if a.dtype == np.float32:
        return a
    return a.astype(np.float64)


def linalg_eigh(a, UPLO='L'):
    """a symmetric 2-d a (UPLO's triangle mirrored); cyclic Jacobi, 8 sweeps of round-robin rotations; eigenvalues ascending, eigenvector signs may differ from LAPACK's"""
    a = _linalg_float(a)
    n = a.shape[0]
    if UPLO == 'U':
        a = np.triu(a) + np.triu(a, 1).T
    else:
        a = np.tril(a) + np.tril(a, -1).T
    v = np.eye(n, dtype=a.dtype)
    rounds = _jacobi_rounds(n)
    for sweep in range(8):
        for p, q, rest, inverse in rounds:
            ep = np.eye(n, dtype=a.dtype)[p]
            eq = np.eye(n, dtype=a.dtype)[q]
            c, s = _jacobi_rotation((a[p] * ep).sum(axis=1), (a[q] * eq).sum(axis=1), (a[p] * eq).sum(axis=1))
            a = _rotate_columns(a, p, q, rest, inverse, c, s)
            a = _rotate_columns(a.T, p, q, rest, inverse, c, s).T
            v = _rotate_columns(v, p, q, rest, inverse, c, s)
    w = (a * np.eye(n, dtype=a.dtype)).sum(axis=1)
    order = np.argsort(w)
    return w[order], v[:, order]


def linalg_eigvalsh(a, UPLO='L'):
    """as eigh"""
    w, v = linalg_eigh(a, UPLO)
    return w


def _orthonormal_columns(a):
    # q of a = q r: classical Gram-Schmidt with each column orthogonalised twice against the columns
    # before it (twice is enough for columns orthogonal to working precision: Giraud, Langou &
    # Rozloznik, 2005), as matrix-vector products: about 10 operators a column
    cols = [a[:, j:j + 1] for j in range(a.shape[1])]
    q = cols[0] / _nonzero(np.sqrt((cols[0] * cols[0]).sum()))
    for v in cols[1:]:
        for _ in (0, 1):
            v = v - q @ (q.T @ v)
        q = np.concatenate([q, v / _nonzero(np.sqrt((v * v).sum()))], axis=1)
    return q


def _nonzero(norm):
    return np.where(norm > 0, norm, 1.0)


def _svd_tall(a, compute_uv):
    # rows >= 2 x columns: a = q (q.T a) first, so that the rotations walk the n x n q.T a instead
    # of the whole of a, and u = q u' (as LAPACK's gesvd factors a tall matrix before its iteration)
    if a.shape[0] >= 2 * a.shape[1]:
        q = _orthonormal_columns(a)
        u, sv, vt = _svd_jacobi(q.T @ a, compute_uv)
        if not compute_uv:
            return sv, sv, sv
        return q @ u, sv, vt
    return _svd_jacobi(a, compute_uv)


def _svd_jacobi(a, compute_uv):
    # one-sided Jacobi on the columns of a (rows >= columns)
    n = a.shape[1]
    v = np.eye(n, dtype=a.dtype)
    rounds = _jacobi_rounds(n)
    for sweep in range(8):
        for p, q, rest, inverse in rounds:
            ap = a[:, p]
            aq = a[:, q]
            c, s = _jacobi_rotation((ap * ap).sum(axis=0), (aq * aq).sum(axis=0), (ap * aq).sum(axis=0))
            a = _rotate_columns(a, p, q, rest, inverse, c, s)
            v = _rotate_columns(v, p, q, rest, inverse, c, s)
    sv = np.sqrt((a * a).sum(axis=0))
    order = np.argsort(-sv)
    sv = sv[order]
    if not compute_uv:
        return sv, sv, sv
    return a[:, order] / np.where(sv > 0, sv, 1.0), sv, v[:, order].T


def linalg_svd(a, full_matrices=True, compute_uv=True):
    """a 2-d a; a tall a (rows >= 2 x columns) factored a = q (q.T a) first (Gram-Schmidt, twice), then one-sided Jacobi (Hestenes), 8 sweeps; singular values descending; full_matrices=True only for square a; signs of the vectors may differ from LAPACK's"""
    a = _linalg_float(a)
    if full_matrices and compute_uv and a.shape[0] != a.shape[1]:
        _refuse("full_matrices=True needs a square matrix (the extra columns of U are not computed); pass full_matrices=False")
    wide = a.shape[0] < a.shape[1]
    if wide:
        a = a.T
    u, sv, vt = _svd_tall(a, compute_uv)
    if not compute_uv:
        return sv
    if wide:
        return vt.T, sv, u.T
    return u, sv, vt


def random_uniform(low=0.0, high=1.0, size=None):
    """low + (high - low) * random_sample(size): NumPy's legacy stream (after np.random.seed, the same values); a shape is needed"""
    return low + (high - low) * np.random.random_sample(size)


def random_normal(loc=0.0, scale=1.0, size=None):
    """loc + scale * standard_normal(size): NumPy's legacy stream; a shape is needed"""
    return loc + scale * np.random.standard_normal(size)


def random_standard_normal(size=None):
    """NumPy's legacy Gaussian stream, as np.random.randn(*size) (the same values in the same order); a shape is needed"""
    if size is None:
        return np.random.randn()
    shape = np.empty(size).shape
    n = 1
    for d in shape:
        n *= d
    return np.random.randn(n).reshape(shape)
