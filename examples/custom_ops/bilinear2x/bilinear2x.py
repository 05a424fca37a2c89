"""Bilinear2x: 2x bilinear upsampling with half-pixel centres, borders clamped; written with te.compute, with a hand schedule
(`ascop test --default-schedules` tests the compiler's own)."""
import te
import te_op


@te_op.register("bilinear2x")
def bilinear2x(x):
    h, w = x.shape
    # output i lies between input row i // 2 (weight 3/4) and its neighbour on i's side (1/4), clamped
    y = te.compute((2 * h, 2 * w), lambda i, j:
                   0.5625 * x[i // 2, j // 2]
                   + 0.1875 * x[i // 2, te.min(te.max(j // 2 + 2 * (j % 2) - 1, 0), w - 1)]
                   + 0.1875 * x[te.min(te.max(i // 2 + 2 * (i % 2) - 1, 0), h - 1), j // 2]
                   + 0.0625 * x[te.min(te.max(i // 2 + 2 * (i % 2) - 1, 0), h - 1),
                                te.min(te.max(j // 2 + 2 * (j % 2) - 1, 0), w - 1)], name="bilinear2x")
    s = te.create_schedule(y)
    cols, lanes = s.split(s.axis(1), factor=16)
    rows = s.fuse(s.axis(0), cols)
    s.bind(rows, 6)
    s.vectorize(lanes)
    return y
