"""`te.lang`: the namespace that holds the CCE DSL."""
from . import cce

__all__ = ["cce"]
