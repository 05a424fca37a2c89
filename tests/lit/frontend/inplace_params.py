# Parameters updated in place (C[:] = ..., A[1:-1] += ..., a += ...) are outputs named after them.
# RUN: %asc-fe --emit=graph --no-locations --entry=update --input=A:float32[16] --input=C:float32[4,4] --input=b:float32[4,4] %s | FileCheck %s
import numpy as np

def update(A, C, b):
    C[:] = b @ b
    A[1:-1] += 1.0
    b += 2
    return A.sum()

# CHECK-LABEL: graph {
# CHECK-NEXT:   input %A : f32[16]
# CHECK-NEXT:   input %C : f32[4,4]
# CHECK-NEXT:   input %b : f32[4,4]
# CHECK-NEXT:   const %cst : f32[] = [1.0]
# CHECK-NEXT:   const %cst_1 : f32[] = [2.0]
# CHECK-NEXT:   %matmul = MatMul(%b, %b) : f32[4,4]
# CHECK-NEXT:   %slice = Slice(%A) {axes = [0], begin = [1], end = [15], step = [1], dynamic_axes = []} : f32[14]
# CHECK-NEXT:   %add = Add(%slice, %cst) : f32[14]
# CHECK-NEXT:   %A_1 = SliceUpdate(%A, %add) {axes = [0], begin = [1], end = [15], step = [1], dynamic_axes = []} : f32[16]
# CHECK-NEXT:   %b_1 = Add(%b, %cst_1) : f32[4,4]
# CHECK-NEXT:   %reducesum = ReduceSum(%A_1) {keepdims = false} : f32[]
# CHECK-NEXT:   output out0 = %reducesum
# CHECK-NEXT:   output A = %A_1
# CHECK-NEXT:   output C = %matmul
# CHECK-NEXT:   output b = %b_1
# CHECK-NEXT: }
