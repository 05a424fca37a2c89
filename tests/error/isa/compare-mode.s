; RUN: asc-as %s -o /dev/null
    vcmp.f16.lq ub[0x0], ub[0x100], ub[0x200]
