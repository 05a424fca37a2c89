# np.newaxis (and None) insert axes; ... stands for the remaining axes.
# RUN: %asc-fe --emit=graph --no-locations --entry=f %s | FileCheck %s
import numpy as np
from pyasc import Tensor, float32

def f(x: Tensor[float32, 2, 3, 4], v: Tensor[float32, 4]):
    return x[np.newaxis, 1, ..., -1], x[..., None], v[:, None] * v[None, :]

# CHECK-LABEL: graph {
# CHECK-NEXT:   input %x : f32[2,3,4]
# CHECK-NEXT:   input %v : f32[4]
# CHECK-NEXT:   %slice = Slice(%x) {axes = [0, 2], begin = [1, 3], end = [2, 4], step = [1, 1], dynamic_axes = []} : f32[1,3,1]
# CHECK-NEXT:   %squeeze = Squeeze(%slice) {axes = [0, 2]} : f32[3]
# CHECK-NEXT:   %expanddims = ExpandDims(%squeeze) {axes = [0]} : f32[1,3]
# CHECK-NEXT:   %expanddims_1 = ExpandDims(%x) {axes = [3]} : f32[2,3,4,1]
# CHECK-NEXT:   %expanddims_2 = ExpandDims(%v) {axes = [1]} : f32[4,1]
# CHECK-NEXT:   %expanddims_3 = ExpandDims(%v) {axes = [0]} : f32[1,4]
# CHECK-NEXT:   %mul = Mul(%expanddims_2, %expanddims_3) : f32[4,4]
# CHECK-NEXT:   output out0 = %expanddims
# CHECK-NEXT:   output out1 = %expanddims_1
# CHECK-NEXT:   output out2 = %mul
# CHECK-NEXT: }
