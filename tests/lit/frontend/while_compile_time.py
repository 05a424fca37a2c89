# while loops run at compile time on scalar conditions (here a halving reduction tree).
# RUN: %asc-fe --emit=graph --no-locations --entry=tree_sum %s | FileCheck %s
from pyasc import Tensor, float32

def tree_sum(a: Tensor[float32, 8, 4]):
    n = a.shape[0]
    while n > 1:
        n //= 2
        a = a[:n] + a[n:2 * n]
    return a

# CHECK-LABEL: graph {
# CHECK-NEXT:   input %a : f32[8,4]
# CHECK-NEXT:   %slice = Slice(%a) {axes = [0], begin = [0], end = [4], step = [1], dynamic_axes = []} : f32[4,4]
# CHECK-NEXT:   %slice_1 = Slice(%a) {axes = [0], begin = [4], end = [8], step = [1], dynamic_axes = []} : f32[4,4]
# CHECK-NEXT:   %a_1 = Add(%slice, %slice_1) : f32[4,4]
# CHECK-NEXT:   %slice_2 = Slice(%a_1) {axes = [0], begin = [0], end = [2], step = [1], dynamic_axes = []} : f32[2,4]
# CHECK-NEXT:   %slice_3 = Slice(%a_1) {axes = [0], begin = [2], end = [4], step = [1], dynamic_axes = []} : f32[2,4]
# CHECK-NEXT:   %a_2 = Add(%slice_2, %slice_3) : f32[2,4]
# CHECK-NEXT:   %slice_4 = Slice(%a_2) {axes = [0], begin = [0], end = [1], step = [1], dynamic_axes = []} : f32[1,4]
# CHECK-NEXT:   %slice_5 = Slice(%a_2) {axes = [0], begin = [1], end = [2], step = [1], dynamic_axes = []} : f32[1,4]
# CHECK-NEXT:   %a_3 = Add(%slice_4, %slice_5) : f32[1,4]
# CHECK-NEXT:   output out0 = %a_3
# CHECK-NEXT: }
