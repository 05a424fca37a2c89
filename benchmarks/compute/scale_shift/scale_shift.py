"""ScaleShift: y = x * 2 + 1 over a matrix, written with te.compute, to compare its default schedule
with the built-in elementwise template on the same operation (benchmarks/compute/suite.yaml)."""
import te
import te_op


@te_op.register("scale_shift")
def scale_shift(x):
    return te.compute(x.shape, lambda i, j: x[i, j] * 2 + 1, name="scale_shift")
