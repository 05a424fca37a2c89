"""BoxFilter: the mean of each 3x3 neighbourhood, borders clamped, as a user writes it with te.compute: a sum over two
reduce axes inlined into the mean, everything else left to the compiler's schedule."""
import te
import te_op


@te_op.register("box_filter")
def box_filter(x):
    h, w = x.shape
    di = te.reduce_axis((0, 3), name="di")
    dj = te.reduce_axis((0, 3), name="dj")
    total = te.compute(x.shape, lambda i, j: te.sum(x[te.min(te.max(i + di - 1, 0), h - 1),
                                                      te.min(te.max(j + dj - 1, 0), w - 1)], axis=[di, dj]), name="total")
    y = te.compute(x.shape, lambda i, j: total[i, j] / 9, name="box_filter")
    s = te.create_schedule(y)
    s.compute_inline(total)
    return y
