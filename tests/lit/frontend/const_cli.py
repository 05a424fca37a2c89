# --const makes a parameter a compile-time scalar: here the loop bounds and a slice size.
# RUN: %asc-fe --emit=graph --no-locations --entry=f --const=n=4 --const=scale=0.5 --input=a:float32[8] %s | FileCheck %s
import numpy as np

def f(a, n, scale):
    acc = np.zeros(2, dtype=np.float32)
    for i in range(n):
        acc += a[2 * i:2 * i + 2] * scale
    return acc

# CHECK-LABEL: graph {
# CHECK-NEXT:   input %a : f32[8]
# CHECK-NEXT:   const %cst : s32[] = [2]
# CHECK-NEXT:   const %cst_1 : f32[] = [0.5]
# CHECK-NEXT:   %acc = Fill() {shape = [2], dtype = "float32", value = 0.0} : f32[2]
# CHECK-NEXT:   %acc_3 = Loop(%acc) {start = 0, stop = 4, step = 1} : f32[2] (%i : s32[], %acc_1 : f32[2]) {
# CHECK-NEXT:     %idx = Mul(%i, %cst) : s32[]
# CHECK-NEXT:     %slice = Slice(%a, %idx) {axes = [0], begin = [0], end = [2], step = [1], dynamic_axes = [0]} : f32[2]
# CHECK-NEXT:     %mul = Mul(%slice, %cst_1) : f32[2]
# CHECK-NEXT:     %acc_2 = Add(%acc_1, %mul) : f32[2]
# CHECK-NEXT:     yield %acc_2
# CHECK-NEXT:   }
# CHECK-NEXT:   output out0 = %acc_3
# CHECK-NEXT: }
