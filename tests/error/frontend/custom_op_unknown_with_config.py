# RUN: asc-fe --emit=graph --custom-op-config=../../lit/frontend/Inputs/custom_ops.json --entry=f --input=x:float16[64] %s
def f(x):
    return custom_reul(x)
