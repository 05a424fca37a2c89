"""{{Name}}: a custom composite operator (leaky relu, then scale) in the TBE DSL; pyasc parses this file,
CPython runs it."""
import te
import te_op


@te_op.register("{{name}}")
def {{name}}(x, alpha=0.1, scale=2.0):
    activated = te.lang.cce.vlrelu(x, alpha)
    return te.lang.cce.vmuls(activated, scale)
