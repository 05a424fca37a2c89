"""pyasc.nn: neural-network helpers with the semantics the compiler's NN operators implement.

Floats keep their dtype (float32 stays float32); integer inputs compute in NumPy's float loop.
"""
import numpy as _np


def _float(x):
    x = _np.asarray(x)
    return x if x.dtype.kind == "f" else x.astype(_np.result_type(x.dtype, _np.float16))


def softmax(x, axis=-1):
    """exp(x - max) / sum(exp(x - max)) along `axis`."""
    x = _float(x)
    e = _np.exp(x - _np.max(x, axis=axis, keepdims=True))
    return e / _np.sum(e, axis=axis, keepdims=True)


def log_softmax(x, axis=-1):
    """x - max - log(sum(exp(x - max))) along `axis`."""
    x = _float(x)
    shifted = x - _np.max(x, axis=axis, keepdims=True)
    return shifted - _np.log(_np.sum(_np.exp(shifted), axis=axis, keepdims=True))


def layer_norm(x, gamma, beta, axis=-1, eps=1e-5):
    """(x - mean) / sqrt(var + eps) * gamma + beta, statistics along `axis`."""
    x = _float(x)
    mean = _np.mean(x, axis=axis, keepdims=True)
    var = _np.var(x, axis=axis, keepdims=True)
    return (x - mean) / _np.sqrt(var + eps) * gamma + beta


def batch_norm(x, mean, var, gamma, beta, axis=1, eps=1e-5):
    """Inference batch norm with per-channel statistics on `axis` (1-D parameters)."""
    x = _float(x)
    shape = [1] * x.ndim
    shape[axis] = x.shape[axis]

    def channel(p):
        return _np.reshape(p, shape)

    return (x - channel(mean)) / _np.sqrt(channel(var) + eps) * channel(gamma) + channel(beta)


def gelu(x):
    """x * Phi(x) with the tanh approximation used on the device."""
    x = _float(x)
    return 0.5 * x * (1 + _np.tanh(0.7978845608028654 * (x + 0.044715 * x ** 3)))


def sigmoid(x):
    """1 / (1 + exp(-x))."""
    x = _float(x)
    return 1 / (1 + _np.exp(-x))


def relu(x):
    """max(x, 0), keeping the dtype."""
    return _np.maximum(x, 0)


def leaky_relu(x, alpha=0.01):
    """x where x > 0, else alpha * x."""
    x = _float(x)
    return _np.where(x > 0, x, x * alpha)


def tanh(x):
    """Hyperbolic tangent."""
    return _np.tanh(x)


__all__ = ["softmax", "log_softmax", "layer_norm", "batch_norm", "gelu", "sigmoid", "relu", "leaky_relu", "tanh",
           "conv2d", "max_pool2d", "avg_pool2d"]


def conv2d(x, w, stride=(1, 1), padding=(0, 0, 0, 0), dilation=(1, 1), groups=1, layout="NHWC"):
    """2-d cross-correlation. NHWC: x [N,H,W,C], w [KH,KW,C/groups,Cout]; NCHW: x [N,C,H,W],
    w [Cout,C/groups,KH,KW]. padding is (top, bottom, left, right)."""
    x = _np.asarray(x)
    w = _np.asarray(w)
    if layout == "NCHW":
        x = x.transpose(0, 2, 3, 1)
        w = w.transpose(2, 3, 1, 0)
    sh, sw = stride
    pt, pb, pl, pr = padding
    dh, dw = dilation
    n, h, wd, c = x.shape
    kh, kw, cg, cout = w.shape
    xp = _np.pad(x, ((0, 0), (pt, pb), (pl, pr), (0, 0)))
    oh = (h + pt + pb - (kh - 1) * dh - 1) // sh + 1
    ow = (wd + pl + pr - (kw - 1) * dw - 1) // sw + 1
    dtype = _np.result_type(x, w)
    out = _np.zeros((n, oh, ow, cout), dtype=_np.float64)
    og = cout // groups
    for g in range(groups):
        xs = xp[..., g * cg:(g + 1) * cg].astype(_np.float64)
        ws = w[..., g * og:(g + 1) * og].astype(_np.float64)
        for i in range(kh):
            for j in range(kw):
                patch = xs[:, i * dh:i * dh + (oh - 1) * sh + 1:sh, j * dw:j * dw + (ow - 1) * sw + 1:sw, :]
                out[..., g * og:(g + 1) * og] += _np.einsum("nhwc,cf->nhwf", patch, ws[i, j])
    out = out.astype(dtype)
    return out.transpose(0, 3, 1, 2) if layout == "NCHW" else out


def _ints(value, counts, what):
    """An int or a tuple of ints, widened to the longest of `counts` ((3,) -> (3, 3))."""
    values = (value,) if _np.isscalar(value) else tuple(value)
    if len(values) not in counts:
        raise ValueError("%s needs %s values, got %r" % (what, " or ".join(str(c) for c in counts), value))
    if len(values) == 2 and max(counts) == 4:
        values = (values[0], values[0], values[1], values[1])
    return tuple(int(v) for v in values) * (max(counts) // len(values))


def _pool2d(name, x, kernel, stride, padding, layout):
    """Max or average over windows; padded positions are -inf (max) or 0 counted in the divisor (avg)."""
    x = _float(x)
    if layout not in ("NHWC", "NCHW"):
        raise ValueError("%s layout must be 'NHWC' or 'NCHW', got %r" % (name, layout))
    if layout == "NCHW":
        x = x.transpose(0, 2, 3, 1)
    kh, kw = _ints(kernel, (1, 2), name + " kernel")
    sh, sw = (kh, kw) if stride is None else _ints(stride, (1, 2), name + " stride")
    pt, pb, pl, pr = _ints(padding, (1, 2, 4), name + " padding")
    if min(kh, kw, sh, sw) < 1 or min(pt, pb, pl, pr) < 0:
        raise ValueError("%s kernel and stride must be positive and padding non-negative" % name)
    if max(pt, pb) > kh // 2 or max(pl, pr) > kw // 2:
        raise ValueError("%s padding must be at most half the kernel" % name)
    n, h, w, c = x.shape
    oh = (h + pt + pb - kh) // sh + 1
    ow = (w + pl + pr - kw) // sw + 1
    if oh < 1 or ow < 1:
        raise ValueError("%s kernel is larger than the padded input" % name)
    maximum = name == "max_pool2d"
    fill = -_np.inf if maximum else 0.0
    xp = _np.pad(x.astype(_np.float64), ((0, 0), (pt, pb), (pl, pr), (0, 0)), constant_values=fill)
    out = _np.full((n, oh, ow, c), fill)
    for i in range(kh):
        for j in range(kw):
            tap = xp[:, i:i + (oh - 1) * sh + 1:sh, j:j + (ow - 1) * sw + 1:sw, :]
            out = _np.maximum(out, tap) if maximum else out + tap
    if not maximum:
        out = out / (kh * kw)
    out = out.astype(x.dtype)
    return out.transpose(0, 3, 1, 2) if layout == "NCHW" else out


def max_pool2d(x, kernel, stride=None, padding=(0, 0, 0, 0), layout="NHWC"):
    """Maximum over each kernel window (PyTorch's MaxPool2d without dilation). kernel and stride are an
    int or (h, w); stride defaults to the kernel; padding is an int, (h, w) or (top, bottom, left, right),
    at most half the kernel, and padded positions never win. NHWC: x [N,H,W,C]; NCHW: x [N,C,H,W]."""
    return _pool2d("max_pool2d", x, kernel, stride, padding, layout)


def avg_pool2d(x, kernel, stride=None, padding=(0, 0, 0, 0), layout="NHWC"):
    """Mean over each kernel window, always divided by the full window size kh*kw: padded positions
    count as zeros (PyTorch's AvgPool2d defaults, count_include_pad=True). Arguments as max_pool2d."""
    return _pool2d("avg_pool2d", x, kernel, stride, padding, layout)
