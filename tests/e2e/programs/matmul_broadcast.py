# e2e: --entry=f --input=a:float32[2,1,5,33] --input=b:float32[3,33,17] --input=v:float32[33]
# matmul with broadcast batch dimensions, a shared left operand, a vector against a batch, and
# einsum with implicit outputs (a label in both operands but not kept is summed).
import numpy as np


def f(a, b, v):
    w = b[0]
    return a @ b, np.matmul(w.T, b), v @ b, np.einsum("ij,jk", a[0, 0], w), np.einsum("bij,bjk", b.transpose(0, 2, 1)[:, :5, :], b[:, :, :9])
