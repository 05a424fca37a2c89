"""LeakyReluScale: leaky ReLU followed by a scale, fused into one vector pass (TBE-style definition)."""
import te
import te_op


@te_op.register("leaky_relu_scale")
def leaky_relu_scale(x, alpha=0.1, scale=2.0):
    return te.lang.cce.vmuls(te.lang.cce.vlrelu(x, alpha), scale)
