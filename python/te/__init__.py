"""Reference shim of the TBE `te` package: `te.lang.cce` and `te.compute` compute with NumPy, and
`te.create_schedule` accepts pyasc's schedule primitives (they change how a kernel runs on the NPU,
never what it computes, so under NumPy they only check their arguments)."""
from . import lang
from .compute import abs, compute, exp, if_then_else, log, max, min, reduce_axis, relu, rsqrt, sqrt, sum

__all__ = ["lang", "create_schedule", "compute", "reduce_axis", "sum", "max", "min", "if_then_else", "exp", "log",
           "sqrt", "rsqrt", "abs", "relu"]

_PRIMITIVES = {"split": 2, "tile": 4, "fuse": 1, "reorder": 0, "compute_at": 0, "compute_inline": 0, "cache_read": 0, "cache_write": 0,
               "double_buffer": 0, "vectorize": 0, "tensorize": 0, "bind": 0, "unroll": 0}


class _Schedule:
    """The schedule of the kernel computing one tensor: axes by name, primitives as in sdk/te/Schedule.h."""

    def __init__(self, tensor):
        self.tensor = tensor

    def axis(self, index):
        return "i%d" % index

    def reduce_axis(self, index):
        return "r%d" % index

    def __getattr__(self, name):
        if name not in _PRIMITIVES:
            raise AttributeError("a schedule has no primitive '%s'" % name)
        created = _PRIMITIVES[name]

        def primitive(*args, **kwargs):
            axes = [a for a in args if isinstance(a, str)]
            if created == 2:
                return axes[0] + ".o", axes[0] + ".i"
            if created == 4:
                return axes[0] + ".o", axes[1] + ".o", axes[0] + ".i", axes[1] + ".i"
            if created == 1:
                return axes[0] + "." + axes[1]
            return None

        return primitive


def create_schedule(tensor):
    return _Schedule(tensor)
