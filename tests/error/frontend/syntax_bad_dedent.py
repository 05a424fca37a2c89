# RUN: asc-fe --emit=graph %s
def f(a):
        b = a
    return b
