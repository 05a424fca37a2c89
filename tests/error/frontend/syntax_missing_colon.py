# RUN: asc-fe --emit=graph %s
def f(a)
    return a
