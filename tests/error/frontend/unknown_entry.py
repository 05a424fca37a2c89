# RUN: asc-fe --emit=graph --entry=fucn %s
def func(a):
    return a
