; RUN: asc-as %s -o /dev/null
    vadd.f16 ub[0x0], ub[0x100], ub[0x200], repaet=2
