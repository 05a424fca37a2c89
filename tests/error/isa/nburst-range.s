; RUN: asc-as %s -o /dev/null
    copy_ub_gm gm[x1+0x0], ub[0x0], nburst=4096, len=1
