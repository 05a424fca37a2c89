# RUN: asc-fe --emit=graph --entry=f --input=a:float32[8] %s
def f(a):
    for i in range(8):
        if i == 0:
            a[i] = 0
    return a
