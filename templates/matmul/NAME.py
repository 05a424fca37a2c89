"""{{Name}}: a custom matrix product on the cube in the TBE DSL; pyasc parses this file, CPython runs it."""
import te
import te_op


@te_op.register("{{name}}")
def {{name}}(a, b):
    return te.lang.cce.matmul(a, b, dst_dtype="float16")
