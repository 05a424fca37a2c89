# Nested kept loops: the inner loop is a node of the outer body; offsets scale with the index.
# RUN: %asc-fe --emit=graph --no-locations --entry=tiles %s | FileCheck %s
import numpy as np
from pyasc import Tensor, float32

def tiles(a: Tensor[float32, 64, 64]):
    out = np.zeros((64, 64), dtype=np.float32)
    for i in range(4):
        for j in range(4):
            out[16 * i:16 * i + 16, 16 * j:16 * j + 16] = a[16 * i:16 * i + 16, 16 * j:16 * j + 16].T
    return out

# CHECK-LABEL: graph {
# CHECK-NEXT:   input %a : f32[64,64]
# CHECK-NEXT:   const %cst : s32[] = [16]
# CHECK-NEXT:   %out = Fill() {shape = [64, 64], dtype = "float32", value = 0.0} : f32[64,64]
# CHECK-NEXT:   %out_5 = Loop(%out) {start = 0, stop = 4, step = 1} : f32[64,64] (%i : s32[], %out_1 : f32[64,64]) {
# CHECK-NEXT:     %out_4 = Loop(%out_1) {start = 0, stop = 4, step = 1} : f32[64,64] (%j : s32[], %out_2 : f32[64,64]) {
# CHECK-NEXT:       %idx = Mul(%i, %cst) : s32[]
# CHECK-NEXT:       %idx_1 = Mul(%j, %cst) : s32[]
# CHECK-NEXT:       %slice = Slice(%a, %idx, %idx_1) {axes = [0, 1], begin = [0, 0], end = [16, 16], step = [1, 1], dynamic_axes = [0, 1]} : f32[16,16]
# CHECK-NEXT:       %transpose = Transpose(%slice) : f32[16,16]
# CHECK-NEXT:       %out_3 = SliceUpdate(%out_2, %transpose, %idx, %idx_1) {axes = [0, 1], begin = [0, 0], end = [16, 16], step = [1, 1], dynamic_axes = [0, 1]} : f32[64,64]
# CHECK-NEXT:       yield %out_3
# CHECK-NEXT:     }
# CHECK-NEXT:     yield %out_4
# CHECK-NEXT:   }
# CHECK-NEXT:   output out0 = %out_5
# CHECK-NEXT: }
