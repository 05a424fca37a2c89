# axpy-like kernel for the runtime tests.


def f(x, y):
    return x * 2.5 + y
