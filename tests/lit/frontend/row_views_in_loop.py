# A view taken in the loop body and written through (row = A[i]; row[:] = ...) updates A, so A
# is carried by the loop and is an output of the function.
# RUN: %asc-fe --emit=graph --no-locations --entry=f --input=A:float32[4,8] %s | FileCheck %s
import numpy as np

def f(A):
    for i in range(4):
        row = A[i]
        row[:] = row * 2 + i
    return A.sum()

# CHECK-LABEL: graph {
# CHECK-NEXT:   input %A : f32[4,8]
# CHECK-NEXT:   const %cst : f32[] = [2.0]
# CHECK-NEXT:   %A_3 = Loop(%A) {start = 0, stop = 4, step = 1} : f32[4,8] (%i : s32[], %A_1 : f32[4,8]) {
# CHECK-NEXT:     %slice = Slice(%A_1, %i) {axes = [0], begin = [0], end = [1], step = [1], dynamic_axes = [0]} : f32[1,8]
# CHECK-NEXT:     %row = Squeeze(%slice) {axes = [0]} : f32[8]
# CHECK-NEXT:     %mul = Mul(%row, %cst) : f32[8]
# CHECK-NEXT:     %cast = Cast(%i) {dtype = "float32"} : f32[]
# CHECK-NEXT:     %add = Add(%mul, %cast) : f32[8]
# CHECK-NEXT:     %expanddims = ExpandDims(%add) {axes = [0]} : f32[1,8]
# CHECK-NEXT:     %A_2 = SliceUpdate(%A_1, %expanddims, %i) {axes = [0], begin = [0], end = [1], step = [1], dynamic_axes = [0]} : f32[4,8]
# CHECK-NEXT:     yield %A_2
# CHECK-NEXT:   }
# CHECK-NEXT:   %reducesum = ReduceSum(%A_3) {keepdims = false} : f32[]
# CHECK-NEXT:   output out0 = %reducesum
# CHECK-NEXT:   output A = %A_3
# CHECK-NEXT: }
