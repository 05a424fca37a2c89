# Array methods resolve through the registry's method aliases.
# RUN: %asc-fe --emit=graph --no-locations --entry=f %s | FileCheck %s
from pyasc import Tensor, float32

def f(a: Tensor[float32, 4, 6]):
    return a.sum(axis=0), a.reshape((3, 8)), a.transpose(), a.max(), a.dot(a.T), a.copy(), a.flatten(), a.squeeze(), a.any()

# CHECK-LABEL: graph {
# CHECK-NEXT:   input %a : f32[4,6]
# CHECK-NEXT:   %reducesum = ReduceSum(%a) {axes = [0], keepdims = false} : f32[6]
# CHECK-NEXT:   %reshape = Reshape(%a) {shape = [3, 8]} : f32[3,8]
# CHECK-NEXT:   %transpose = Transpose(%a) : f32[6,4]
# CHECK-NEXT:   %reducemax = ReduceMax(%a) {keepdims = false} : f32[]
# CHECK-NEXT:   %transpose_1 = Transpose(%a) : f32[6,4]
# CHECK-NEXT:   %matmul = MatMul(%a, %transpose_1) : f32[4,4]
# CHECK-NEXT:   %identity = Identity(%a) : f32[4,6]
# CHECK-NEXT:   %reshape_1 = Reshape(%a) {shape = [-1]} : f32[24]
# CHECK-NEXT:   %squeeze = Squeeze(%a) : f32[4,6]
# CHECK-NEXT:   %reduceany = ReduceAny(%a) {keepdims = false} : b8[]
# CHECK-NEXT:   output out0 = %reducesum
# CHECK-NEXT:   output out1 = %reshape
# CHECK-NEXT:   output out2 = %transpose
# CHECK-NEXT:   output out3 = %reducemax
# CHECK-NEXT:   output out4 = %matmul
# CHECK-NEXT:   output out5 = %identity
# CHECK-NEXT:   output out6 = %reshape_1
# CHECK-NEXT:   output out7 = %squeeze
# CHECK-NEXT:   output out8 = %reduceany
# CHECK-NEXT: }
