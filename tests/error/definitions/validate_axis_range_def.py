# RUN: ascop validate validate_axis_range.json
# validate compiles the definition: an axis out of range fails here, not later.
import te
import te_op


@te_op.register("validate_check")
def validate_check(x):
    y = te.lang.cce.vmax(x, 0)
    s = te.create_schedule(y)
    outer, inner = s.split(s.axis(3), factor=256)
    return y
