# RUN: asc-fe --emit=graph --entry=f --input=a:float32[4] %s
def f(a, n: int):
    while n > 0:
        n = n - 1
    return a
