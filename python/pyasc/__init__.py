"""pyasc for Python: the reference shims programs import, and the compiler and runtime when built.

Every program pyasc compiles also runs with this package on PYTHONPATH, which is the oracle for
`pyasc check` and the e2e suite. Pragmas are comments (`# pragma: parallelize factor=4`) and need
nothing at run time; `pragma()` exists for code that wants to mark the same intent in Python.

With the native module of the build on PYTHONPATH (`<build>/python`, docs/python.md), the package
also compiles and runs programs: `compile`, `load`, `jit` and `Model` (`has_native` tells).
"""
import numpy as _np

from . import nn

float16 = _np.float16
float32 = _np.float32
float64 = _np.float64
int8 = _np.int8
int16 = _np.int16
int32 = _np.int32
int64 = _np.int64
uint8 = _np.uint8
bool_ = _np.bool_


class TensorSpec:
    """The value of `Tensor[float32]` or `Tensor[float32, 64, 128]`: a dtype and an optional shape.

    Dimensions are ints or names in quotes ("N") for symbolic extents.
    """

    def __init__(self, dtype, shape=None):
        self.dtype = _np.dtype(dtype)
        self.shape = None if shape is None else tuple(shape)

    def __repr__(self):
        dims = "" if self.shape is None else ", " + ", ".join(str(d) for d in self.shape)
        return "Tensor[%s%s]" % (self.dtype.name, dims)

    def __eq__(self, other):
        return isinstance(other, TensorSpec) and (self.dtype, self.shape) == (other.dtype, other.shape)

    def __hash__(self):
        return hash((self.dtype, self.shape))

    def matches(self, array):
        """True when `array` has this dtype and, if a shape is given, this shape (names match any extent)."""
        array = _np.asarray(array)
        if array.dtype != self.dtype:
            return False
        if self.shape is None:
            return True
        if array.ndim != len(self.shape):
            return False
        return all(isinstance(d, str) or d == n for d, n in zip(self.shape, array.shape))


class Tensor:
    """Annotation helper: `def f(a: Tensor[float32]) -> Tensor[float32]`. Not instantiated."""

    def __class_getitem__(cls, params):
        if not isinstance(params, tuple):
            params = (params,)
        if not params:
            raise TypeError("Tensor[...] needs a dtype: Tensor[float32] or Tensor[float32, 64, 128]")
        return TensorSpec(params[0], params[1:] if len(params) > 1 else None)

    def __new__(cls, *args, **kwargs):
        raise TypeError("Tensor is a type annotation; create arrays with NumPy")


_KNOWN_PRAGMAS = {"parallelize": {"factor"}, "auto_mixed_precision": {"mode"}}


def pragma(name, **args):
    """Checks a pragma's name and arguments like the compiler does; a no-op at run time."""
    if name not in _KNOWN_PRAGMAS:
        raise ValueError("unknown pragma '%s'; known pragmas: %s" % (name, ", ".join(sorted(_KNOWN_PRAGMAS))))
    unknown = set(args) - _KNOWN_PRAGMAS[name]
    if unknown:
        raise ValueError("pragma '%s' has no argument '%s'" % (name, sorted(unknown)[0]))
    return None


try:
    from pyasc_native import Model, compile, has_cpu_backend, load  # noqa: F401 (re-exported)
    has_native = True
except ImportError:  # the shims alone: programs running under CPython + NumPy
    has_native = False


def jit(fn=None, *, inputs=None, target="ascend910b", opt_level="O2", custom_op_config=(), backend=None):
    """Compiles a NumPy function (defined at the top level of a file) on its first call.

    Without `inputs` ({name: (dtype, shape)}), each call's argument dtypes and shapes choose the
    model, compiled once per signature. `backend` is 'cpu' or 'sim' (default: the model's, 'cpu'
    when built). The wrapper's `models` maps each signature to its Model.
    """
    if not has_native:
        raise ImportError("pyasc.jit needs the native module: put <build>/python on PYTHONPATH (docs/python.md)")
    import functools
    import inspect

    def wrap(f):
        path = inspect.getsourcefile(f)
        names = list(inspect.signature(f).parameters)
        models = {}

        @functools.wraps(f)
        def call(*args):
            arrays = [_np.asarray(a) for a in args]
            specs = inputs or {n: (a.dtype.name, list(a.shape)) for n, a in zip(names, arrays)}
            key = tuple((n, str(d), tuple(s)) for n, (d, s) in sorted(specs.items()))
            model = models.get(key)
            if model is None:
                model = compile(path, entry=f.__name__, inputs=specs, target=target, opt_level=opt_level,
                                custom_op_config=list(custom_op_config))
                if backend:
                    model.backend = backend
                models[key] = model
            return model(*arrays)

        call.models = models
        return call

    return wrap(fn) if fn is not None else wrap


__all__ = ["Tensor", "TensorSpec", "nn", "pragma", "float16", "float32", "float64", "int8", "int16", "int32",
           "int64", "uint8", "bool_", "has_native", "jit"] + (["Model", "compile", "load", "has_cpu_backend"] if has_native else [])
