# RUN: asc-fe --emit=graph --entry=f --input=x:float32[8,16] %s
def f(x):
    return x[[0, -9], 1:]
