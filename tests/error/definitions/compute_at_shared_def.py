import te
import te_op


@te_op.register("compute_at_shared")
def compute_at_shared(x):
    t = te.compute(x.shape, lambda i: x[i] * 2, name="doubled")
    u = te.compute(x.shape, lambda i: t[i] + 1, name="plus_one")
    y = te.compute(x.shape, lambda i: t[i] * u[i], name="product")
    s = te.create_schedule(y)
    s.compute_at(t, s.axis(0))
    return y
