# Reductions with axis (int, negative, tuple), keepdims, ddof, argmax, and methods.
# RUN: %asc-fe --emit=graph --no-locations --entry=stats %s | FileCheck %s
import numpy as np
from pyasc import Tensor, float32

def stats(x: Tensor[float32, 8, 16]):
    m = x.mean(axis=1, keepdims=True)
    s = np.std(x, axis=-1, ddof=1)
    mx = np.max(x, axis=(0, 1))
    am = np.argmax(x, axis=0)
    return x - m, s, mx, am, np.sum(x), x.prod(0), np.var(x), np.any(x > 0, axis=1), x.argmin()

# CHECK-LABEL: graph {
# CHECK-NEXT:   input %x : f32[8,16]
# CHECK-NEXT:   const %cst : f32[] = [0.0]
# CHECK-NEXT:   %m = ReduceMean(%x) {axes = [1], keepdims = true} : f32[8,1]
# CHECK-NEXT:   %s = ReduceStd(%x) {axes = [-1], ddof = 1, keepdims = false} : f32[8]
# CHECK-NEXT:   %mx = ReduceMax(%x) {axes = [0, 1], keepdims = false} : f32[]
# CHECK-NEXT:   %am = ArgMax(%x) {axis = 0, keepdims = false} : s64[16]
# CHECK-NEXT:   %sub = Sub(%x, %m) : f32[8,16]
# CHECK-NEXT:   %reducesum = ReduceSum(%x) {keepdims = false} : f32[]
# CHECK-NEXT:   %reduceprod = ReduceProd(%x) {axes = [0], keepdims = false} : f32[16]
# CHECK-NEXT:   %reducevar = ReduceVar(%x) {ddof = 0, keepdims = false} : f32[]
# CHECK-NEXT:   %greater = Greater(%x, %cst) : b8[8,16]
# CHECK-NEXT:   %reduceany = ReduceAny(%greater) {axes = [1], keepdims = false} : b8[8]
# CHECK-NEXT:   %argmin = ArgMin(%x) {keepdims = false} : s64[]
# CHECK-NEXT:   output out0 = %sub
# CHECK-NEXT:   output out1 = %s
# CHECK-NEXT:   output out2 = %mx
# CHECK-NEXT:   output out3 = %am
# CHECK-NEXT:   output out4 = %reducesum
# CHECK-NEXT:   output out5 = %reduceprod
# CHECK-NEXT:   output out6 = %reducevar
# CHECK-NEXT:   output out7 = %reduceany
# CHECK-NEXT:   output out8 = %argmin
# CHECK-NEXT: }
