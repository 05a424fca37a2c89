"""BatchedOuter: the outer product of a[n] and b[n] for every n of a batch; written with te.compute, with a hand schedule
(`ascop test --default-schedules` tests the compiler's own)."""
import te
import te_op


@te_op.register("batched_outer")
def batched_outer(a, b):
    y = te.compute((a.shape[0], a.shape[1], b.shape[1]), lambda n, i, j: a[n, i] * b[n, j], name="batched_outer")
    s = te.create_schedule(y)
    cols, lanes = s.split(s.axis(2), factor=16)
    rows = s.fuse(s.axis(0), s.axis(1))
    rows = s.fuse(rows, cols)
    s.bind(rows, 6)
    s.vectorize(lanes)
    return y
