"""`te.compute` and its element functions, computed with NumPy.

An element function runs once, on whole index arrays: axis d of a compute of rank r is an int32
array varying along dimension d, and each reduce axis gets a dimension of its own after them, so
`x[i, j]` is NumPy fancy indexing and `te.sum(..., axis=k)` sums that dimension. Index values follow
the compiler's typing (frontend/ComputeTyping): axes are int32, Python numbers take the other
operand's dtype when they have its kind, results NumPy would compute in float64 or int64 are errors.
"""
import numpy as _np

_FORBIDDEN = (_np.dtype(_np.float64), _np.dtype(_np.int64))
_reduce_axes = []  # te.reduce_axis results not yet used by a te.compute, in creation order


def _dtype_name(v):
    if isinstance(v, _Value):
        return v.dtype.name
    if isinstance(v, _np.ndarray):
        return v.dtype.name
    return "an int" if isinstance(v, (int, bool, _np.integer)) else "a float"


def _as_value(v):
    if isinstance(v, _Value):
        return v
    if isinstance(v, _np.ndarray):
        return _Value(v)
    return None


def _common(what, a, b):
    """The dtype a and b combine in (np.promote_types, Python numbers weak)."""
    va, vb = _as_value(a), _as_value(b)
    if va is not None and vb is not None:
        t = _np.promote_types(va.dtype, vb.dtype)
    else:
        array = va if va is not None else vb
        number = b if va is not None else a
        if isinstance(number, (bool, _np.bool_)):
            t = array.dtype
        elif isinstance(number, (int, _np.integer)):
            t = _np.dtype(_np.int64) if array.dtype == _np.bool_ else array.dtype
        else:
            t = array.dtype if array.dtype.kind == "f" else _np.dtype(_np.float64)
    if t in _FORBIDDEN:
        raise TypeError("%s of %s and %s gives %s, which the NPU does not compute; convert an operand first, "
                        "e.g. with .astype(\"%s\")" % (what, _dtype_name(a), _dtype_name(b), t.name,
                                                      "float32" if t.kind == "f" else "int32"))
    return t


def _array(v, t):
    if isinstance(v, _Value):
        return v.array.astype(t, copy=False)
    return _np.asarray(v).astype(t)


class _Value:
    """An array of element values (or indices) with the compiler's operator typing."""

    __array_priority__ = 1000
    __array_ufunc__ = None  # NumPy arrays defer to these operators

    def __init__(self, array):
        self.array = _np.asarray(array)

    @property
    def dtype(self):
        return self.array.dtype

    def __array__(self, dtype=None):
        return self.array if dtype is None else self.array.astype(dtype)

    def astype(self, dtype):
        t = _np.dtype(dtype)
        if t in _FORBIDDEN:
            raise TypeError("astype: the NPU does not compute %s; use %s" % (t.name, "float32" if t.kind == "f" else "int32"))
        return _Value(self.array.astype(t))

    def _binary(self, op, other, reverse=False):
        a, b = (other, self) if reverse else (self, other)
        t = _common("'%s'" % op, a, b)
        if op in ("&", "|"):
            if t != _np.bool_:
                raise TypeError("'%s' combines conditions (bool), not %s" % (op, t.name))
        elif t == _np.bool_ and op not in ("<", "<=", ">", ">=", "==", "!="):
            raise TypeError("'%s' of two bools is not supported; convert them with .astype(\"int32\") first" % op)
        if op == "/" and t.kind != "f":
            raise TypeError("'/' of %s values gives float64, which the NPU does not compute; use '//' for integer "
                            "division, or convert to a float first" % t.name)
        if op in ("//", "%") and t.kind not in "iu":
            raise TypeError("'%s' needs integers here, not %s" % (op, t.name))
        x, y = _array(a, t), _array(b, t)
        fn = _OPS[op]
        result = fn(x, y)
        return _Value(result if result.dtype == _np.bool_ else result.astype(t))

    def __neg__(self):
        if self.dtype == _np.bool_:
            raise TypeError("'-' of a bool is not supported")
        return _Value(-self.array)

    def __pos__(self):
        return self

    def __invert__(self):
        if self.dtype != _np.bool_:
            raise TypeError("'~' negates a condition (bool), not %s" % self.dtype.name)
        return _Value(~self.array)

    def __bool__(self):
        raise TypeError("an index expression has no truth value: use te.min/te.max/te.if_then_else, not Python's "
                        "min/max/if/and/or")


_OPS = {"+": _np.add, "-": _np.subtract, "*": _np.multiply, "/": _np.true_divide, "//": _np.floor_divide,
        "%": _np.mod, "<": _np.less, "<=": _np.less_equal, ">": _np.greater, ">=": _np.greater_equal,
        "==": _np.equal, "!=": _np.not_equal, "&": _np.logical_and, "|": _np.logical_or}
_DUNDER = {"+": "add", "-": "sub", "*": "mul", "/": "truediv", "//": "floordiv", "%": "mod", "&": "and", "|": "or"}
for _op, _name in _DUNDER.items():
    setattr(_Value, "__%s__" % _name, lambda self, other, _op=_op: self._binary(_op, other))
    setattr(_Value, "__r%s__" % _name, lambda self, other, _op=_op: self._binary(_op, other, reverse=True))
for _op, _name in {"<": "lt", "<=": "le", ">": "gt", ">=": "ge", "==": "eq", "!=": "ne"}.items():
    setattr(_Value, "__%s__" % _name, lambda self, other, _op=_op: self._binary(_op, other))
_Value.__hash__ = None


def _value(v):
    """An operand as a _Value: a Python number becomes int32 or float32 standing alone."""
    if isinstance(v, (_Value, _np.ndarray)):
        return _as_value(v)
    if isinstance(v, (bool, _np.bool_)):
        return _Value(_np.asarray(v, dtype=_np.bool_))
    if isinstance(v, (int, _np.integer)):
        return _Value(_np.asarray(v, dtype=_np.int32))
    return _Value(_np.asarray(v, dtype=_np.float32))


class ReduceAxis(_Value):
    """te.reduce_axis((lo, hi)): an index over [lo, hi) along a dimension of its own."""

    def __init__(self, lo, hi, name):
        self.lo, self.hi, self.name = lo, hi, name
        self.dim = None
        super().__init__(_np.arange(lo, hi, dtype=_np.int32))


def reduce_axis(dom, name=None):
    lo, hi = dom
    if not isinstance(lo, (int, _np.integer)) or not isinstance(hi, (int, _np.integer)):
        raise TypeError("te.reduce_axis: the range must be two ints (lo, hi)")
    if hi <= lo:
        raise ValueError("te.reduce_axis: the range is empty")
    axis = ReduceAxis(int(lo), int(hi), name or "k%d" % len(_reduce_axes))
    _reduce_axes.append(axis)
    return axis


def _reducer(name, fn):
    def reducer(a, b=None, axis=None):
        if axis is None and b is not None and not isinstance(b, (ReduceAxis, list, tuple)):
            t = _common("te." + name, a, b)
            return _Value(fn(_array(a, t), _array(b, t)))
        axes = axis if axis is not None else b
        axes = list(axes) if isinstance(axes, (list, tuple)) else [axes]
        if not axes or not all(isinstance(k, ReduceAxis) and k.dim is not None for k in axes):
            raise TypeError("te.%s: axis must be a reduce axis (te.reduce_axis) or a list of them" % name)
        v = _value(a)
        if v.dtype == _np.bool_:
            raise TypeError("te.%s of bools is not supported; convert with .astype(\"int32\")" % name)
        dims = tuple(k.dim for k in axes)
        full = _np.broadcast_to(v.array, _broadcast_shape(v.array, dims))
        reduce = {"sum": _np.sum, "max": _np.max, "min": _np.min}[name]
        return _Value(reduce(full, axis=dims, keepdims=True).astype(v.dtype))

    return reducer


_compute_rank = [0]  # dimensions of the compute being evaluated (data axes + reduce axes)
_compute_extents = [()]


def _broadcast_shape(array, dims):
    """The array's shape with the reduce dimensions `dims` at their full extent."""
    shape = list(array.shape)
    shape = [1] * (_compute_rank[0] - len(shape)) + shape
    for d in dims:
        shape[d] = _compute_extents[0][d]
    return tuple(shape)


sum = _reducer("sum", None)
max = _reducer("max", _np.maximum)
min = _reducer("min", _np.minimum)


def if_then_else(cond, then, otherwise):
    c = _value(cond)
    if c.dtype != _np.bool_:
        raise TypeError("te.if_then_else: the condition must be a comparison (bool)")
    if isinstance(then, (_Value, _np.ndarray)) or isinstance(otherwise, (_Value, _np.ndarray)):
        t = _common("te.if_then_else", then, otherwise)
    else:
        t = _np.dtype(_np.int32 if all(isinstance(v, (int, _np.integer)) for v in (then, otherwise)) else _np.float32)
    return _Value(_np.where(c.array, _array(then, t), _array(otherwise, t)))


def _math(name, fn, floats_only=True):
    def function(x):
        v = _value(x)
        if floats_only and v.dtype.kind != "f":
            raise TypeError("te.%s of %s is not supported; convert to a float first" % (name, v.dtype.name))
        with _np.errstate(all="ignore"):
            return _Value(fn(v.array).astype(v.dtype))

    function.__name__ = name
    return function


exp = _math("exp", _np.exp)
log = _math("log", _np.log)
sqrt = _math("sqrt", _np.sqrt)
rsqrt = _math("rsqrt", lambda a: 1 / _np.sqrt(a))
abs = _math("abs", _np.abs, floats_only=False)
relu = _math("relu", lambda a: _np.maximum(a, _np.zeros((), a.dtype)), floats_only=False)


def compute(shape, fcompute, name="compute", tag="", attrs=None):
    """The tensor of `shape` whose element at (i, j, ...) is fcompute(i, j, ...)."""
    shape = tuple(int(n) for n in (shape if isinstance(shape, (tuple, list)) else (shape,)))
    if any(n < 1 for n in shape):
        raise ValueError("te.compute: the shape's extents must be positive ints")
    rank = len(shape)
    axes = list(_reduce_axes)
    _reduce_axes.clear()
    total = rank + len(axes)
    for k, axis in enumerate(axes):
        axis.dim = rank + k
        axis.array = _np.arange(axis.lo, axis.hi, dtype=_np.int32).reshape([-1] + [1] * (total - rank - k - 1))
    indices = []
    for d, n in enumerate(shape):
        indices.append(_Value(_np.arange(n, dtype=_np.int32).reshape([n] + [1] * (total - d - 1))))
    _compute_rank[0] = total
    _compute_extents[0] = shape + tuple(axis.hi - axis.lo for axis in axes)
    try:
        with _np.errstate(all="ignore"):
            result = _value(fcompute(*indices)).array
    finally:
        for axis in axes:
            axis.dim = None
    result = result.reshape((1,) * (total - result.ndim) + result.shape)
    for k in range(rank, total):
        if result.shape[k] != 1:
            raise TypeError("te.compute: reduce axis '%s' is used outside a reduction over it" % axes[k - rank].name)
    result = result.reshape(result.shape[:rank])
    return _np.ascontiguousarray(_np.broadcast_to(result, shape))
