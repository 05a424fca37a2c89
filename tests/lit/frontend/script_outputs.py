# A script's outputs are its top-level arrays that nothing later reads, named after the variable.
# RUN: %asc-fe --emit=graph --no-locations %s | FileCheck %s
import numpy as np
x = np.arange(12, dtype=np.float32).reshape(3, 4)
y = x * 2
z = y.sum(axis=0)
w = np.exp(x)
scale = 3

# CHECK-LABEL: graph {
# CHECK-NEXT:   const %cst : f32[] = [2.0]
# CHECK-NEXT:   %range = Range() {start = 0.0, stop = 12.0, step = 1.0, dtype = "float32"} : f32[12]
# CHECK-NEXT:   %x = Reshape(%range) {shape = [3, 4]} : f32[3,4]
# CHECK-NEXT:   %y = Mul(%x, %cst) : f32[3,4]
# CHECK-NEXT:   %z = ReduceSum(%y) {axes = [0], keepdims = false} : f32[4]
# CHECK-NEXT:   %w = Exp(%x) : f32[3,4]
# CHECK-NEXT:   output z = %z
# CHECK-NEXT:   output w = %w
# CHECK-NEXT: }
