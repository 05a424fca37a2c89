"""{{Name}}: a custom reduction in the TBE DSL; pyasc parses this file, CPython runs it."""
import te
import te_op


@te_op.register("{{name}}")
def {{name}}(x, axes=(-1,), keepdims=False):
    return te.lang.cce.sum(x, axis=axes, keepdims=keepdims)
