; RUN: asc-as %s -o /dev/null
loop:
    add x1, x1, 1
    blt x1, x2, lopo
