"""Window3: the mean of each element and its two neighbours, borders clamped (a 1-D three-point window); written with te.compute, with a hand schedule
(`ascop test --default-schedules` tests the compiler's own)."""
import te
import te_op


@te_op.register("window3")
def window3(x):
    n = x.shape[0]
    y = te.compute(x.shape, lambda i: (x[te.max(i - 1, 0)] + x[i] + x[te.min(i + 1, n - 1)]) / 3, name="window3")
    s = te.create_schedule(y)
    outer, inner = s.split(s.axis(0), factor=32)
    s.bind(outer, 4)
    s.vectorize(inner)
    return y
