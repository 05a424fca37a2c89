; RUN: asc-as %s -o /dev/null
    vconv.f32.f16.nearest ub[0x0], ub[0x100]
