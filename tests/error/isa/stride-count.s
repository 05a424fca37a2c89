; RUN: asc-as %s -o /dev/null
    vsub.f32 ub[0x0], ub[0x100], ub[0x200], blk=1/1
