# RUN: asc-fe --emit=graph --entry=f --input=x:float16[2,8,16] --input=w:float16[32,4] %s
def f(x, w):
    return x @ w
