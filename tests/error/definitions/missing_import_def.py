# RUN: pyasc --custom-op-config=missing_import.json --entry=f --input=x:float32[64] %s -o /dev/null
# The guide's snippet without its imports: a located error naming the import, not a NameError at check time.
import te


@te_op.register("validate_check")
def validate_check(x):
    return te.lang.cce.vmax(x, 0)


def f(x):
    return validate_check(x)
