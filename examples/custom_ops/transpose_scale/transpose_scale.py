"""TransposeScale: the transpose of a matrix, scaled: y[i, j] = x[j, i] * scale; written with te.compute, with a hand schedule
(`ascop test --default-schedules` tests the compiler's own)."""
import te
import te_op


@te_op.register("transpose_scale")
def transpose_scale(x, scale=2.0):
    y = te.compute((x.shape[1], x.shape[0]), lambda i, j: x[j, i] * scale, name="transpose_scale")
    s = te.create_schedule(y)
    cols, lanes = s.split(s.axis(1), factor=16)
    rows = s.fuse(s.axis(0), cols)
    s.bind(rows, 6)
    s.vectorize(lanes)
    return y
