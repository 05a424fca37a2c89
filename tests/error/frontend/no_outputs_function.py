# RUN: pyasc --entry=f --input=x:float32[4] %s -o /dev/null
# A function that returns no arrays compiles (an empty model) with a warning.


def f(x):
    y = x + 1
