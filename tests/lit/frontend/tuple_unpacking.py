# Shapes unpack into compile-time ints; functions return several outputs out0, out1, ...
# RUN: %asc-fe --emit=graph --no-locations --entry=f %s | FileCheck %s
import numpy as np
from pyasc import Tensor, float32

def f(a: Tensor[float32, 6, 4]):
    rows, cols = a.shape
    half = rows // 2
    top, bottom = a[:half], a[half:]
    return top + bottom, np.zeros((cols, rows), dtype=np.float32) + a.T, len(a)

# CHECK-LABEL: graph {
# CHECK-NEXT:   input %a : f32[6,4]
# CHECK-NEXT:   const %cst : s32[] = [6]
# CHECK-NEXT:   %slice = Slice(%a) {axes = [0], begin = [0], end = [3], step = [1], dynamic_axes = []} : f32[3,4]
# CHECK-NEXT:   %slice_1 = Slice(%a) {axes = [0], begin = [3], end = [6], step = [1], dynamic_axes = []} : f32[3,4]
# CHECK-NEXT:   %add = Add(%slice, %slice_1) : f32[3,4]
# CHECK-NEXT:   %fill = Fill() {shape = [4, 6], dtype = "float32", value = 0.0} : f32[4,6]
# CHECK-NEXT:   %transpose = Transpose(%a) : f32[4,6]
# CHECK-NEXT:   %add_1 = Add(%fill, %transpose) : f32[4,6]
# CHECK-NEXT:   output out0 = %add
# CHECK-NEXT:   output out1 = %add_1
# CHECK-NEXT:   output out2 = %cst
# CHECK-NEXT: }
