# matmul, @, dot, einsum and tensordot with NumPy's batching and vector rules.
# RUN: %asc-fe --emit=graph --no-locations --entry=mm %s | FileCheck %s
import numpy as np
from pyasc import Tensor, float32

def mm(a: Tensor[float32, 2, 8, 16], b: Tensor[float32, 16, 4], c: Tensor[float32, 16]):
    return a @ b, np.dot(b.T, c), np.einsum("bij,jk->bik", a, b), np.tensordot(a, b, axes=1), c @ c, b.T.dot(c)

# CHECK-LABEL: graph {
# CHECK-NEXT:   input %a : f32[2,8,16]
# CHECK-NEXT:   input %b : f32[16,4]
# CHECK-NEXT:   input %c : f32[16]
# CHECK-NEXT:   %matmul = MatMul(%a, %b) : f32[2,8,4]
# CHECK-NEXT:   %transpose = Transpose(%b) : f32[4,16]
# CHECK-NEXT:   %matmul_1 = MatMul(%transpose, %c) : f32[4]
# CHECK-NEXT:   %einsum = Einsum(%a, %b) {equation = "bij,jk->bik"} : f32[2,8,4]
# CHECK-NEXT:   %tensordot = TensorDot(%a, %b) {axes_a = [2], axes_b = [0]} : f32[2,8,4]
# CHECK-NEXT:   %matmul_2 = MatMul(%c, %c) : f32[]
# CHECK-NEXT:   %transpose_1 = Transpose(%b) : f32[4,16]
# CHECK-NEXT:   %matmul_3 = MatMul(%transpose_1, %c) : f32[4]
# CHECK-NEXT:   output out0 = %matmul
# CHECK-NEXT:   output out1 = %matmul_1
# CHECK-NEXT:   output out2 = %einsum
# CHECK-NEXT:   output out3 = %tensordot
# CHECK-NEXT:   output out4 = %matmul_2
# CHECK-NEXT:   output out5 = %matmul_3
# CHECK-NEXT: }
