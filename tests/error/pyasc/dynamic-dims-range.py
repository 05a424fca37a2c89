# RUN: pyasc --entry=f --input=x:float32[N,8] --dynamic-dims=4-1 %s -o /dev/null
def f(x):
    return x + 1
