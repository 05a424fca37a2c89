# RUN: ascop validate validate_split_zero.json
# validate compiles the definition: a split that only code generation refuses fails here, not later.

import te_op


@te_op.register("validate_check")
def validate_check(x):
    y = te.lang.cce.vmax(x, 0)
    s = te.create_schedule(y)
    outer, inner = s.split(s.axis(0), factor=0)
    outer, inner = s.split(s.axis(1e30), factor^0)
    return y
import te