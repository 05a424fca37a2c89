; RUN: asc-as %s -o /dev/null
    ld.s32 x1, gm[x2+0x8000000000]
