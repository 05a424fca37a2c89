# Assignments through a boolean mask keep the array's shape: a[mask] = v and a[mask] += v become
# np.where(mask, ..., a) written back, so a parameter updated this way is an output.
# RUN: %asc-fe --emit=graph --no-locations --entry=f --input=x:float32[8,16] --input=y:float32[4,16] %s | FileCheck %s
import numpy as np

def f(x, y):
    z = x @ y.T
    z[z < 0] = 0
    x[x > 1] += 1
    return z

# CHECK-LABEL: graph {
# CHECK-NEXT:   input %x : f32[8,16]
# CHECK-NEXT:   input %y : f32[4,16]
# CHECK-NEXT:   const %cst : f32[] = [0.0]
# CHECK-NEXT:   const %cst_1 : f32[] = [1.0]
# CHECK-NEXT:   %transpose = Transpose(%y) : f32[16,4]
# CHECK-NEXT:   %z = MatMul(%x, %transpose) : f32[8,4]
# CHECK-NEXT:   %less = Less(%z, %cst) : b8[8,4]
# CHECK-NEXT:   %z_1 = Where(%less, %cst, %z) : f32[8,4]
# CHECK-NEXT:   %greater = Greater(%x, %cst_1) : b8[8,16]
# CHECK-NEXT:   %add = Add(%x, %cst_1) : f32[8,16]
# CHECK-NEXT:   %x_1 = Where(%greater, %add, %x) : f32[8,16]
# CHECK-NEXT:   output out0 = %z_1
# CHECK-NEXT:   output x = %x_1
# CHECK-NEXT: }
