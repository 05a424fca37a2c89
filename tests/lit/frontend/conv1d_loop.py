# A range loop over taps stays a loop; slices and scalars move with the induction variable.
# RUN: %asc-fe --emit=graph --no-locations --entry=conv1d %s | FileCheck %s
import numpy as np
from pyasc import Tensor, float32

def conv1d(A: Tensor[float32, 4, 64], w: Tensor[float32, 3]):
    K = w.shape[0]
    out = np.zeros((A.shape[0], A.shape[1] - K + 1), dtype=np.float32)
    for k in range(K):
        out += A[:, k:k + A.shape[1] - K + 1] * w[k]
    return out

# CHECK-LABEL: graph {
# CHECK-NEXT:   input %A : f32[4,64]
# CHECK-NEXT:   input %w : f32[3]
# CHECK-NEXT:   %out = Fill() {shape = [4, 62], dtype = "float32", value = 0.0} : f32[4,62]
# CHECK-NEXT:   %out_3 = Loop(%out) {start = 0, stop = 3, step = 1} : f32[4,62] (%k : s32[], %out_1 : f32[4,62]) {
# CHECK-NEXT:     %slice = Slice(%A, %k) {axes = [1], begin = [0], end = [62], step = [1], dynamic_axes = [1]} : f32[4,62]
# CHECK-NEXT:     %slice_1 = Slice(%w, %k) {axes = [0], begin = [0], end = [1], step = [1], dynamic_axes = [0]} : f32[1]
# CHECK-NEXT:     %squeeze = Squeeze(%slice_1) {axes = [0]} : f32[]
# CHECK-NEXT:     %mul = Mul(%slice, %squeeze) : f32[4,62]
# CHECK-NEXT:     %out_2 = Add(%out_1, %mul) : f32[4,62]
# CHECK-NEXT:     yield %out_2
# CHECK-NEXT:   }
# CHECK-NEXT:   output out0 = %out_3
# CHECK-NEXT: }
