; RUN: asc-as %s -o /dev/null
    vexp.f64x ub[0x0], ub[0x100]
