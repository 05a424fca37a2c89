# RUN: pyasc check --entry=f --input=x:float32[N,8] --dynamic-dims=N=1-4 --input-shape y=2,8 %s
def f(x):
    return x * 2
