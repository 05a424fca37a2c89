"""RowSoftmax: softmax of every row, written with reduce axes (max, shifted exponent, sum, division); written with te.compute, with a hand schedule
(`ascop test --default-schedules` tests the compiler's own) that computes the row sums inside the division's loops (compute_at)."""
import te
import te_op


@te_op.register("row_softmax")
def row_softmax(x):
    rows, cols = x.shape
    k = te.reduce_axis((0, cols), name="k")
    top = te.compute((rows,), lambda i: te.max(x[i, k], axis=k), name="row_max")
    e = te.compute(x.shape, lambda i, j: te.exp(x[i, j] - top[i]), name="shifted_exp")
    k2 = te.reduce_axis((0, cols), name="k2")
    total = te.compute((rows,), lambda i: te.sum(e[i, k2], axis=k2), name="row_sum")
    y = te.compute(x.shape, lambda i, j: e[i, j] / total[i], name="row_softmax")
    s = te.create_schedule(y)
    s.compute_at(total, s.axis(0))  # each row's sum once per row of y (in UB), not a kernel of its own
    cols, lanes = s.split(s.axis(1), factor=16)
    s.bind(s.axis(0), 6)
    s.vectorize(lanes)
    return y
