# e2e: --entry=f --input=x:float32[4,1000] --input=y:float16[40,70]
# Math functions where their range reductions and cancellations are hardest: trigonometry of huge
# arguments (x scaled by powers of two, exact), tanh, expm1 and log1p of tiny ones, exp2 near both
# ends of its range, and the inverse hyperbolic functions; float32 and float16.
import numpy as np


def f(x, y):
    return (np.sin(x * 2.0 ** 20), np.cos(x * 2.0 ** 100), np.tan(x * 2.0 ** 13), np.sin(-x * 2.0 ** 60),
            np.tanh(x * 2.0 ** -20), np.expm1(x * 2.0 ** -23), np.log1p(x * 2.0 ** -23), np.exp2(x * 256 - 128),
            np.sinh(x * 178 - 89), np.cosh(x * 178 - 89), np.tanh(x * 20 - 10),
            np.arcsinh(x * 16 - 8), np.arccosh(x * 64 + 1), np.arctanh(x * 1.5 - 0.75), np.arcsinh(x * 2.0 ** 40),
            np.sin(y * 2048), np.cos(y * 4096), np.tanh(y * 8 - 4), np.arcsinh(y * 8 - 4), np.arccosh(y * 3 + 1),
            np.arctanh(y - 0.5), np.exp2(y * 30 - 15), np.log2(y + 0.25), np.log10(y + 0.25))
