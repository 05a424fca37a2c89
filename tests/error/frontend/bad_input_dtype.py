# RUN: asc-fe --emit=graph --entry=f --input=a:flaot32[4,4] %s
def f(a):
    return a
