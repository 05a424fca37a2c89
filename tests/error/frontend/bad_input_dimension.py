# RUN: asc-fe --emit=graph --entry=f --input=a:float32[4,-2] %s
def f(a):
    return a
