# RUN: asc-fe --emit=graph --entry=f --input=a:float32[2,3,4] %s
def f(a):
    m, n = a.shape
    return a
