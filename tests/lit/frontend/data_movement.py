# reshape, .T, transpose, concatenate, stack, expand_dims, squeeze, broadcast_to, ravel.
# RUN: %asc-fe --emit=graph --no-locations --entry=shapes %s | FileCheck %s
import numpy as np
from pyasc import Tensor, float32

def shapes(x: Tensor[float32, 2, 3, 4]):
    y = x.reshape(6, -1).T
    z = np.transpose(x, (2, 0, 1))
    w = np.concatenate([x, x], axis=1)
    v = np.stack((x, x), axis=-1)
    e = np.expand_dims(x, 0)
    q = np.squeeze(e)
    b = np.broadcast_to(x[0:1], (5, 3, 4))
    return y, z, w, v, q, b, x.ravel(), x.transpose(1, 0, 2)

# CHECK-LABEL: graph {
# CHECK-NEXT:   input %x : f32[2,3,4]
# CHECK-NEXT:   %reshape = Reshape(%x) {shape = [6, -1]} : f32[6,4]
# CHECK-NEXT:   %transpose = Transpose(%reshape) : f32[4,6]
# CHECK-NEXT:   %z = Transpose(%x) {perm = [2, 0, 1]} : f32[4,2,3]
# CHECK-NEXT:   %w = Concat(%x, %x) {axis = 1} : f32[2,6,4]
# CHECK-NEXT:   %v = Stack(%x, %x) {axis = -1} : f32[2,3,4,2]
# CHECK-NEXT:   %e = ExpandDims(%x) {axes = [0]} : f32[1,2,3,4]
# CHECK-NEXT:   %q = Squeeze(%e) : f32[2,3,4]
# CHECK-NEXT:   %slice = Slice(%x) {axes = [0], begin = [0], end = [1], step = [1], dynamic_axes = []} : f32[1,3,4]
# CHECK-NEXT:   %b = BroadcastTo(%slice) {shape = [5, 3, 4]} : f32[5,3,4]
# CHECK-NEXT:   %reshape_1 = Reshape(%x) {shape = [-1]} : f32[24]
# CHECK-NEXT:   %transpose_1 = Transpose(%x) {perm = [1, 0, 2]} : f32[3,2,4]
# CHECK-NEXT:   output out0 = %transpose
# CHECK-NEXT:   output out1 = %z
# CHECK-NEXT:   output out2 = %w
# CHECK-NEXT:   output out3 = %v
# CHECK-NEXT:   output out4 = %q
# CHECK-NEXT:   output out5 = %b
# CHECK-NEXT:   output out6 = %reshape_1
# CHECK-NEXT:   output out7 = %transpose_1
# CHECK-NEXT: }
