# RUN: asc-fe --emit=graph --entry=f --const=n %s
def f(n):
    return n
