"""Im2col3x3: the 3x3 patches of an image as rows (im2col, no padding); written with te.compute, with a hand schedule
(`ascop test --default-schedules` tests the compiler's own)."""
import te
import te_op


@te_op.register("im2col3x3")
def im2col3x3(x):
    h, w = x.shape
    y = te.compute(((h - 2) * (w - 2), 9), lambda p, q: x[p // (w - 2) + q // 3, p % (w - 2) + q % 3], name="im2col3x3")
    s = te.create_schedule(y)
    s.bind(s.axis(0), 6)
    s.vectorize(s.axis(1))
    return y
