"""Reference shim of the TBE `te` package: `te.lang.cce` computes its DSL with NumPy."""
from . import lang

__all__ = ["lang"]
