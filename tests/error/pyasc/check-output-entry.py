# RUN: pyasc check --entry=f --input=x:float32[64] %s --output y
# check --output is for scripts: a function's outputs are what it returns.


def f(x):
    y = x + 1
    return y * 2
