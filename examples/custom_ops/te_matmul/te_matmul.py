"""TeMatmul: a matrix product written with te.compute (a sum over a reduce axis of products), tensorized onto the cube: the hand
schedule tiles the output, splits the contraction and tensorizes the tile to mmad (through L1, L0A, L0B and L0C); without a schedule
(`ascop test --default-schedules`) the compiler tensorizes it with tiles of its own."""
import te
import te_op


@te_op.register("te_matmul")
def te_matmul(a, b):
    m, k = a.shape
    n = b.shape[1]
    r = te.reduce_axis((0, k), name="r")
    c = te.compute((m, n), lambda i, j: te.sum(a[i, r] * b[r, j], axis=r), name="te_matmul")
    s = te.create_schedule(c)
    s.tile(s.axis(0), s.axis(1), 32, 32)
    ro, ri = s.split(s.reduce_axis(0), factor=32)
    s.tensorize(ri, "mmad")
    s.bind(s.axis(0), 2)
    return c
