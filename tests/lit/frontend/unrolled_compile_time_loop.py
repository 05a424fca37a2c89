# A loop that updates compile-time Python values is compile-time work: it is unrolled.
# RUN: %asc-fe --emit=graph --no-locations --entry=pyramid %s | FileCheck %s
import numpy as np
from pyasc import Tensor, float32

def pyramid(a: Tensor[float32, 16]):
    n = 16
    total = a
    for level in range(3):
        n = n // 2
        total = total[:n] + total[n:2 * n]
    return total

# CHECK-LABEL: graph {
# CHECK-NEXT:   input %a : f32[16]
# CHECK-NEXT:   %slice = Slice(%a) {axes = [0], begin = [0], end = [8], step = [1], dynamic_axes = []} : f32[8]
# CHECK-NEXT:   %slice_1 = Slice(%a) {axes = [0], begin = [8], end = [16], step = [1], dynamic_axes = []} : f32[8]
# CHECK-NEXT:   %total = Add(%slice, %slice_1) : f32[8]
# CHECK-NEXT:   %slice_2 = Slice(%total) {axes = [0], begin = [0], end = [4], step = [1], dynamic_axes = []} : f32[4]
# CHECK-NEXT:   %slice_3 = Slice(%total) {axes = [0], begin = [4], end = [8], step = [1], dynamic_axes = []} : f32[4]
# CHECK-NEXT:   %total_1 = Add(%slice_2, %slice_3) : f32[4]
# CHECK-NEXT:   %slice_4 = Slice(%total_1) {axes = [0], begin = [0], end = [2], step = [1], dynamic_axes = []} : f32[2]
# CHECK-NEXT:   %slice_5 = Slice(%total_1) {axes = [0], begin = [2], end = [4], step = [1], dynamic_axes = []} : f32[2]
# CHECK-NEXT:   %total_2 = Add(%slice_4, %slice_5) : f32[2]
# CHECK-NEXT:   output out0 = %total_2
# CHECK-NEXT: }
