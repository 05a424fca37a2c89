; RUN: asc-as %s -o /dev/null
    vadds.f16 ub[0x0], ub[0x100], 1.0
