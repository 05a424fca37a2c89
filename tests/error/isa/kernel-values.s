; RUN: asc-as %s -o /dev/null
    img2col.f16 l0a[0x0], l1[0x0], h=8, w=8, c=16, kernel=3
