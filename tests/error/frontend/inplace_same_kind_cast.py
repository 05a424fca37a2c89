# RUN: asc-fe --emit=graph --entry=f --input=i:int32[4] %s
def f(i):
    i += 1.5
    return i
