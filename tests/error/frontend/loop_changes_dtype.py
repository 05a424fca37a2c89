# RUN: asc-fe --emit=graph --entry=f --input=x:int32[4] %s
def f(x):
    for i in range(3):
        x = x + 0.5
    return x
