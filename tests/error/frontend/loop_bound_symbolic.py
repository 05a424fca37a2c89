# RUN: asc-fe --emit=graph --entry=f --input=a:float32[N] %s
def f(a):
    for i in range(a.shape[0]):
        a[i] = 0
    return a
