# RUN: asc-fe --emit=graph --entry=func %s
def func(a):
    return a + 2
