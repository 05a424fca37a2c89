# einsum with explicit and implicit outputs; tensordot with axis pairs.
# RUN: %asc-fe --emit=graph --no-locations --entry=f %s | FileCheck %s
import numpy as np
from pyasc import Tensor, float32

def f(a: Tensor[float32, 3, 4], b: Tensor[float32, 4, 5], c: Tensor[float32, 2, 3, 4]):
    return np.einsum("ij,jk", a, b), np.einsum("ij->ji", a), np.tensordot(c, a, axes=([1, 2], [0, 1])), np.einsum("bij,ij->b", c, a)

# CHECK-LABEL: graph {
# CHECK-NEXT:   input %a : f32[3,4]
# CHECK-NEXT:   input %b : f32[4,5]
# CHECK-NEXT:   input %c : f32[2,3,4]
# CHECK-NEXT:   %einsum = Einsum(%a, %b) {equation = "ij,jk"} : f32[3,5]
# CHECK-NEXT:   %einsum_1 = Einsum(%a) {equation = "ij->ji"} : f32[4,3]
# CHECK-NEXT:   %tensordot = TensorDot(%c, %a) {axes_a = [1, 2], axes_b = [0, 1]} : f32[2]
# CHECK-NEXT:   %einsum_2 = Einsum(%c, %a) {equation = "bij,ij->b"} : f32[2]
# CHECK-NEXT:   output out0 = %einsum
# CHECK-NEXT:   output out1 = %einsum_1
# CHECK-NEXT:   output out2 = %tensordot
# CHECK-NEXT:   output out3 = %einsum_2
# CHECK-NEXT: }
