# Module constants and compile-time shape arithmetic (A.shape[1] - K + 1) fold to integers.
# RUN: %asc-fe --emit=graph --no-locations --entry=valid_conv %s | FileCheck %s
import numpy as np
from pyasc import Tensor, float32

K = 3
STRIDE = 2

def valid_conv(A: Tensor[float32, 4, 32], w: Tensor[float32, 3]):
    m, n = A.shape
    width = (n - K) // STRIDE + 1
    out = np.zeros((m, width), dtype=A.dtype)
    for k in range(K):
        out += A[:, k:k + STRIDE * width:STRIDE] * w[k]
    return out

# CHECK-LABEL: graph {
# CHECK-NEXT:   input %A : f32[4,32]
# CHECK-NEXT:   input %w : f32[3]
# CHECK-NEXT:   %out = Fill() {shape = [4, 15], dtype = "float32", value = 0.0} : f32[4,15]
# CHECK-NEXT:   %out_3 = Loop(%out) {start = 0, stop = 3, step = 1} : f32[4,15] (%k : s32[], %out_1 : f32[4,15]) {
# CHECK-NEXT:     %slice = Slice(%A, %k) {axes = [1], begin = [0], end = [30], step = [2], dynamic_axes = [1]} : f32[4,15]
# CHECK-NEXT:     %slice_1 = Slice(%w, %k) {axes = [0], begin = [0], end = [1], step = [1], dynamic_axes = [0]} : f32[1]
# CHECK-NEXT:     %squeeze = Squeeze(%slice_1) {axes = [0]} : f32[]
# CHECK-NEXT:     %mul = Mul(%slice, %squeeze) : f32[4,15]
# CHECK-NEXT:     %out_2 = Add(%out_1, %mul) : f32[4,15]
# CHECK-NEXT:     yield %out_2
# CHECK-NEXT:   }
# CHECK-NEXT:   output out0 = %out_3
# CHECK-NEXT: }
