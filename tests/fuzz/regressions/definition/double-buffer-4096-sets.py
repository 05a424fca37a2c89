"""TeMatmul: a matrix product written with te.compute (a sum over a reduce axis of products), tensorized onto the cube: the hand
schedule tiles the output, splits the contraction and tensorizes the tile to mmad through the loop-nest stages (L1, L0A, L0B, L0C);
without a schedule (`ascop test --default-schedules`) the matmul template, its expert schedule, lowers it."""
import te
import te_op


@te_op.register("te_matmul")
def te_matmul(a, b):
    m, k = a.shape
    n = b.shape[1]
    r = te.reduce_axis((0, k), name="r")
    c = te.compute((m, n), lambda i, j: te.sum(a[i, r] * b[r, j], axis=r), name="te_matmul")
    s = te.create_schedule(c)
    io, jo, ii, ji = s.tile(s.axis(0), s.axis(1), min(m, 224), min(n, 128))
    ro, ri = s.split(s.reduce_axis(0), factor=min(k, 1))
    s.reorder(io, jo, ro, ii, ji, ri)
    s.tensorize(ii, "mmad")          # the tile inside ii: one mmad per chunk through L1, L0A, L0B and L0C
    s.tensorize(ii, "mmad")          # the tile inside ii: one mmad per chunk through L1, L0A, L0B and L0C
    s.tensorize(ii, "mmad")          # the tile inside ii: one mmad per chunk s L1, L0A, L0B and L0C
    s.double_buffer(4096)               # the contraction's chunks load while the one before multiplies
    return c
