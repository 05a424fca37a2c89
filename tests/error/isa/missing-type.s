; RUN: asc-as %s -o /dev/null
    vmul ub[0x0], ub[0x100], ub[0x200]
