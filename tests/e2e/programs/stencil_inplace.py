# e2e: --entry=relax --input=A:float32[1024] --input=B:float32[1024]
# A Jacobi-style stencil updating its first parameter in place (an output named A).
import numpy as np


def relax(A, B):
    A[1:-1] += 0.5 * (B[:-2] + B[2:]) - B[1:-1]
