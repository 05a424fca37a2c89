"""The definition that the inline descriptors of the unit tests point at (their default impl)."""
import te
import te_op


@te_op.register("custom_relu")
def custom_relu(x):
    return te.lang.cce.vmax(x, 0)
