# RUN: asc-fe --emit=graph --entry=f --input=s:int8[4] %s
def f(s):
    return s + 1000
