"""GatherHalf: each element twice: y[i] = x[i // 2] (a gather at computed indices); written with te.compute, with a hand schedule
(`ascop test --default-schedules` tests the compiler's own)."""
import te
import te_op


@te_op.register("gather_half")
def gather_half(x):
    y = te.compute((2 * x.shape[0],), lambda i: x[i // 2], name="gather_half")
    s = te.create_schedule(y)
    outer, inner = s.split(s.axis(0), factor=32)
    s.bind(outer, 4)
    s.vectorize(inner)
    return y
