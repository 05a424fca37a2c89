# Basic slicing: steps, negative bounds and steps, integer indices dropping axes.
# RUN: %asc-fe --emit=graph --no-locations --entry=f %s | FileCheck %s
from pyasc import Tensor, float32

def f(x: Tensor[float32, 8, 10]):
    return x[1:-1, ::3], x[::-1], x[-2], x[2, 7:1:-2], x[:, -1]

# CHECK-LABEL: graph {
# CHECK-NEXT:   input %x : f32[8,10]
# CHECK-NEXT:   %slice = Slice(%x) {axes = [0, 1], begin = [1, 0], end = [7, 10], step = [1, 3], dynamic_axes = []} : f32[6,4]
# CHECK-NEXT:   %slice_1 = Slice(%x) {axes = [0], begin = [7], end = [-1], step = [-1], dynamic_axes = []} : f32[8,10]
# CHECK-NEXT:   %slice_2 = Slice(%x) {axes = [0], begin = [6], end = [7], step = [1], dynamic_axes = []} : f32[1,10]
# CHECK-NEXT:   %squeeze = Squeeze(%slice_2) {axes = [0]} : f32[10]
# CHECK-NEXT:   %slice_3 = Slice(%x) {axes = [0, 1], begin = [2, 7], end = [3, 1], step = [1, -2], dynamic_axes = []} : f32[1,3]
# CHECK-NEXT:   %squeeze_1 = Squeeze(%slice_3) {axes = [0]} : f32[3]
# CHECK-NEXT:   %slice_4 = Slice(%x) {axes = [1], begin = [9], end = [10], step = [1], dynamic_axes = []} : f32[8,1]
# CHECK-NEXT:   %squeeze_2 = Squeeze(%slice_4) {axes = [1]} : f32[8]
# CHECK-NEXT:   output out0 = %slice
# CHECK-NEXT:   output out1 = %slice_1
# CHECK-NEXT:   output out2 = %squeeze
# CHECK-NEXT:   output out3 = %squeeze_1
# CHECK-NEXT:   output out4 = %squeeze_2
# CHECK-NEXT: }
