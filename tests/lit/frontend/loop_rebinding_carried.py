# A name rebound in a loop (x = x * 0.5 + a) is carried through the loop node.
# RUN: %asc-fe --emit=graph --no-locations --entry=iterate %s | FileCheck %s
import numpy as np
from pyasc import Tensor, float32

def iterate(a: Tensor[float32, 32]):
    x = np.zeros_like(a)
    for step in range(10):
        x = x * 0.5 + a
    return x

# CHECK-LABEL: graph {
# CHECK-NEXT:   input %a : f32[32]
# CHECK-NEXT:   const %cst : f32[] = [0.5]
# CHECK-NEXT:   %x = Fill() {shape = [32], value = 0.0, dtype = "float32"} : f32[32]
# CHECK-NEXT:   %x_3 = Loop(%x) {start = 0, stop = 10, step = 1} : f32[32] (%step : s32[], %x_1 : f32[32]) {
# CHECK-NEXT:     %mul = Mul(%x_1, %cst) : f32[32]
# CHECK-NEXT:     %x_2 = Add(%mul, %a) : f32[32]
# CHECK-NEXT:     yield %x_2
# CHECK-NEXT:   }
# CHECK-NEXT:   output out0 = %x_3
# CHECK-NEXT: }
