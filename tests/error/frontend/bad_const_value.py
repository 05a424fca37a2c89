# RUN: asc-fe --emit=graph --entry=f --const=n=ten %s
def f(n):
    return n
