"""RowL2Norm: the Euclidean norm of every row, sqrt(sum(x * x) + eps), a row-wise reduction (TBE-style definition)."""
import te
import te_op


@te_op.register("row_l2_norm")
def row_l2_norm(x, eps=0.0):
    squares = te.lang.cce.vmul(x, x)
    total = te.lang.cce.sum(squares, axis=-1)
    return te.lang.cce.vsqrt(te.lang.cce.vadds(total, eps))
