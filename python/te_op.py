"""Reference shim of `te_op`: `@te_op.register("custom_relu")` records a TBE-style operator definition.

The decorated function stays callable, so a custom operator's compute can be tested against NumPy.
"""

_registered = {}


def register(name):
    """Registers the decorated compute function under the operator name `name`."""
    if not isinstance(name, str) or not name:
        raise TypeError("te_op.register needs the operator name, e.g. @te_op.register(\"custom_relu\")")

    def decorate(compute):
        if name in _registered and _registered[name] is not compute:
            raise ValueError("operator '%s' is already registered" % name)
        _registered[name] = compute
        return compute

    return decorate


def lookup(name):
    """The compute function registered under `name`; KeyError when none."""
    return _registered[name]


def registered():
    """Names of every registered operator, sorted."""
    return sorted(_registered)
