# RUN: asc-fe --emit=graph --entry=f --input=b:float32[4] %s
def f(a):
    return a
