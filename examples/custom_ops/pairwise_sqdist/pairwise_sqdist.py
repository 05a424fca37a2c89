"""PairwiseSqdist: squared Euclidean distances between every row of a and every row of b, with a reduce axis; written with te.compute, with a hand schedule
(`ascop test --default-schedules` tests the compiler's own)."""
import te
import te_op


@te_op.register("pairwise_sqdist")
def pairwise_sqdist(a, b):
    k = te.reduce_axis((0, a.shape[1]), name="k")
    y = te.compute((a.shape[0], b.shape[0]),
                   lambda i, j: te.sum((a[i, k] - b[j, k]) * (a[i, k] - b[j, k]), axis=k), name="pairwise_sqdist")
    s = te.create_schedule(y)
    chunks, lanes = s.split(s.reduce_axis(0), factor=16)
    pairs = s.fuse(s.axis(0), s.axis(1))
    s.bind(pairs, 6)
    s.vectorize(lanes)
    return y
