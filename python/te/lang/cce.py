"""The TBE DSL `te.lang.cce` (the TBE API reference, `tbe/dsl/api.py`) computed with NumPy.

Tensors are NumPy arrays. As in TBE, elementwise operators keep the dtype of their first operand,
two-tensor operators need equal shapes, and scalar operands (`vadds`, `vmuls`, ...) are converted to
the tensor's dtype. `vmax(x, 0)` and friends also accept a scalar second operand, as the reference
guide's `custom_relu` uses.
"""
import numpy as _np

_COMPARISONS = {"eq": _np.equal, "ne": _np.not_equal, "lt": _np.less, "gt": _np.greater, "ge": _np.greater_equal,
                "le": _np.less_equal}


def _tensor(x):
    return _np.asarray(x)


def _scalar_like(tensor, scalar):
    return _np.asarray(scalar).astype(tensor.dtype)


def _binary(name, fn, lhs, rhs):
    lhs = _tensor(lhs)
    if _np.ndim(rhs) == 0 and not isinstance(rhs, _np.ndarray):
        return fn(lhs, _scalar_like(lhs, rhs)).astype(lhs.dtype)
    rhs = _tensor(rhs)
    if lhs.shape != rhs.shape:
        raise ValueError("%s: operand shapes %s and %s differ; use broadcast() first" % (name, lhs.shape, rhs.shape))
    return fn(lhs, rhs).astype(lhs.dtype)


def vadd(lhs, rhs):
    return _binary("vadd", _np.add, lhs, rhs)


def vsub(lhs, rhs):
    return _binary("vsub", _np.subtract, lhs, rhs)


def vmul(lhs, rhs):
    return _binary("vmul", _np.multiply, lhs, rhs)


def vdiv(lhs, rhs):
    return _binary("vdiv", _np.divide, lhs, rhs)


def vmax(lhs, rhs):
    return _binary("vmax", _np.maximum, lhs, rhs)


def vmin(lhs, rhs):
    return _binary("vmin", _np.minimum, lhs, rhs)


def vadds(raw_tensor, scalar):
    return _binary("vadds", _np.add, raw_tensor, scalar)


def vmuls(raw_tensor, scalar):
    return _binary("vmuls", _np.multiply, raw_tensor, scalar)


def vmaxs(raw_tensor, scalar):
    return _binary("vmaxs", _np.maximum, raw_tensor, scalar)


def vmins(raw_tensor, scalar):
    return _binary("vmins", _np.minimum, raw_tensor, scalar)


def _unary(fn, raw_tensor):
    x = _tensor(raw_tensor)
    return fn(x).astype(x.dtype)


def vexp(raw_tensor):
    return _unary(_np.exp, raw_tensor)


def vlog(raw_tensor):
    return _unary(_np.log, raw_tensor)


def vabs(raw_tensor):
    return _unary(_np.abs, raw_tensor)


def vrec(raw_tensor):
    return _unary(lambda x: 1 / x, raw_tensor)


def vsqrt(raw_tensor):
    return _unary(_np.sqrt, raw_tensor)


def vrsqrt(raw_tensor):
    return _unary(lambda x: 1 / _np.sqrt(x), raw_tensor)


def vrelu(raw_tensor):
    return _unary(lambda x: _np.maximum(x, 0), raw_tensor)


def vlrelu(raw_tensor, alpha=0):
    x = _tensor(raw_tensor)
    return _np.where(x > 0, x, x * _scalar_like(x, alpha)).astype(x.dtype)


def vaxpy(lhs, rhs, scalar):
    """lhs * scalar + rhs."""
    return vadd(vmuls(lhs, scalar), rhs)


def vmla(x, y, z):
    """x * y + z."""
    return vadd(vmul(x, y), z)


def vmadd(x, y, z):
    """x * z + y."""
    return vadd(vmul(x, z), y)


def clip(data, max_value, min_value):
    x = _tensor(data)
    return _np.clip(x, _scalar_like(x, min_value), _scalar_like(x, max_value)).astype(x.dtype)


def vcmp(lhs, rhs, operation="lt", mode="bool"):
    """Elementwise comparison; mode 'bool' gives a bool array, 'bit' packs 8 results per uint8 (lowest bit first)."""
    if operation not in _COMPARISONS:
        raise ValueError("vcmp: operation must be one of %s" % ", ".join(sorted(_COMPARISONS)))
    lhs = _tensor(lhs)
    rhs = _scalar_like(lhs, rhs) if _np.ndim(rhs) == 0 else _tensor(rhs)
    result = _COMPARISONS[operation](lhs, rhs)
    if mode == "bool":
        return result
    if mode == "bit":
        return _np.packbits(result, axis=-1, bitorder="little")
    raise ValueError("vcmp: mode must be 'bool' or 'bit'")


def vsel(condition, lhs, rhs):
    """lhs where condition else rhs; either side may be a scalar."""
    condition = _tensor(condition).astype(bool)
    dtype = _tensor(lhs).dtype if _np.ndim(lhs) else _tensor(rhs).dtype
    return _np.where(condition, lhs, rhs).astype(dtype)


def cast_to(data, dtype, f1628IntegerFlag=True):
    """Converts to `dtype`; floats to integers truncate toward zero."""
    return _tensor(data).astype(dtype)


def _round_to_int(fn, raw_tensor):
    return fn(_tensor(raw_tensor)).astype(_np.int32)


def ceil(raw_tensor):
    return _round_to_int(_np.ceil, raw_tensor)


def floor(raw_tensor):
    return _round_to_int(_np.floor, raw_tensor)


def round(raw_tensor):
    """Round half to even, to int32."""
    return _round_to_int(_np.rint, raw_tensor)


def trunc(raw_tensor):
    return _round_to_int(_np.trunc, raw_tensor)


def _axes(axis):
    return tuple(axis) if isinstance(axis, (list, tuple)) else axis


def sum(raw_tensor, axis, keepdims=False):
    x = _tensor(raw_tensor)
    return _np.sum(x, axis=_axes(axis), keepdims=keepdims).astype(x.dtype)


def reduce_max(raw_tensor, axis, keepdims=False):
    return _np.max(_tensor(raw_tensor), axis=_axes(axis), keepdims=keepdims)


def reduce_min(raw_tensor, axis, keepdims=False):
    return _np.min(_tensor(raw_tensor), axis=_axes(axis), keepdims=keepdims)


def reduce_prod(raw_tensor, axis, keepdims=False):
    x = _tensor(raw_tensor)
    return _np.prod(x, axis=_axes(axis), keepdims=keepdims).astype(x.dtype)


def broadcast(var, shape, output_dtype=None):
    """Repeats `var` (a scalar or an array) to `shape`."""
    dtype = output_dtype or (_tensor(var).dtype if _np.ndim(var) else "float16")
    return _np.array(_np.broadcast_to(_np.asarray(var), tuple(shape)), dtype=dtype)


def matmul(tensor_a, tensor_b, trans_a=False, trans_b=False, format_a="ND", format_b="ND", alpha_num=1.0,
           beta_num=0.0, dst_dtype="float16", tensor_bias=None):
    """The cube's product: float16 operands accumulate in float32, then convert to dst_dtype."""
    a = _tensor(tensor_a)
    b = _tensor(tensor_b)
    a = _np.swapaxes(a, -1, -2) if trans_a else a
    b = _np.swapaxes(b, -1, -2) if trans_b else b
    accumulate = _np.int32 if a.dtype == _np.int8 else _np.float32
    c = _np.matmul(a.astype(accumulate), b.astype(accumulate)) * alpha_num
    if tensor_bias is not None:
        c = c + _tensor(tensor_bias).astype(accumulate)
    return c.astype(dst_dtype)


def concat(raw_tensors, axis):
    return _np.concatenate([_tensor(t) for t in raw_tensors], axis=axis)


__all__ = ["vadd", "vsub", "vmul", "vdiv", "vmax", "vmin", "vadds", "vmuls", "vmaxs", "vmins", "vexp", "vlog", "vabs",
           "vrec", "vsqrt", "vrsqrt", "vrelu", "vlrelu", "vaxpy", "vmla", "vmadd", "clip", "vcmp", "vsel", "cast_to",
           "ceil", "floor", "round", "trunc", "sum", "reduce_max", "reduce_min", "reduce_prod", "broadcast", "matmul",
           "concat"]
