import te
import te_op


@te_op.register("compute_rank")
def compute_rank(x):
    return te.compute(x.shape, lambda i: x[i, i])
