# NumPy reference semantics: names share arrays, slices are views that see later updates.
# RUN: %asc-fe --emit=graph --no-locations --entry=f --input=A:float32[4,4] %s | FileCheck %s
import numpy as np

def f(A):
    B = A
    row = A[0]
    B[0] = 5.0
    whole = A[:]
    whole[1, :] = row * 2
    return row, A

# CHECK-LABEL: graph {
# CHECK-NEXT:   input %A : f32[4,4]
# CHECK-NEXT:   const %cst : f32[] = [5.0]
# CHECK-NEXT:   const %cst_1 : f32[] = [2.0]
# CHECK-NEXT:   %slice = Slice(%A) {axes = [0], begin = [0], end = [1], step = [1], dynamic_axes = []} : f32[1,4]
# CHECK-NEXT:   %row = Squeeze(%slice) {axes = [0]} : f32[4]
# CHECK-NEXT:   %broadcastto = BroadcastTo(%cst) {shape = [4]} : f32[4]
# CHECK-NEXT:   %expanddims = ExpandDims(%broadcastto) {axes = [0]} : f32[1,4]
# CHECK-NEXT:   %B = SliceUpdate(%A, %expanddims) {axes = [0], begin = [0], end = [1], step = [1], dynamic_axes = []} : f32[4,4]
# CHECK-NEXT:   %slice_1 = Slice(%B) {axes = [0], begin = [0], end = [1], step = [1], dynamic_axes = []} : f32[1,4]
# CHECK-NEXT:   %squeeze = Squeeze(%slice_1) {axes = [0]} : f32[4]
# CHECK-NEXT:   %mul = Mul(%squeeze, %cst_1) : f32[4]
# CHECK-NEXT:   %expanddims_1 = ExpandDims(%mul) {axes = [0]} : f32[1,4]
# CHECK-NEXT:   %whole = SliceUpdate(%B, %expanddims_1) {axes = [0], begin = [1], end = [2], step = [1], dynamic_axes = []} : f32[4,4]
# CHECK-NEXT:   %slice_2 = Slice(%whole) {axes = [0], begin = [0], end = [1], step = [1], dynamic_axes = []} : f32[1,4]
# CHECK-NEXT:   %squeeze_1 = Squeeze(%slice_2) {axes = [0]} : f32[4]
# CHECK-NEXT:   output out0 = %squeeze_1
# CHECK-NEXT:   output out1 = %whole
# CHECK-NEXT:   output A = %whole
# CHECK-NEXT: }
