import te
import te_op


@te_op.register("compute_builtin_min")
def compute_builtin_min(x):
    n = x.shape[0]
    return te.compute(x.shape, lambda i: x[min(i + 1, n - 1)])
