# The TBE-style definition of the custom_ops.json operator (the reference guide's custom_relu).
import te
import te_op


@te_op.register("custom_relu")
def custom_relu(input_tensor, alpha=0.0):
    return te.lang.cce.vmax(input_tensor, alpha)
