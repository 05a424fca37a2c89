; RUN: asc-as %s -o /dev/null
    copy_gm_ub ubb[0x0], gm[x1+0x0], nburst=1, len=4
