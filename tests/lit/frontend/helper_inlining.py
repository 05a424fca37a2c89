# Helpers are inlined, with defaults, keyword arguments, nested helpers and tuple returns.
# RUN: %asc-fe --emit=graph --no-locations --entry=model %s | FileCheck %s
import numpy as np
from pyasc import Tensor, float32

def dense(x, w, bias=None, relu=True):
    y = x @ w
    if bias is not None:
        y = y + bias
    return np.maximum(y, 0) if relu else y

def split_stats(x):
    return x.mean(axis=-1), x.max(axis=-1)

def model(x: Tensor[float32, 4, 8], w1: Tensor[float32, 8, 16], w2: Tensor[float32, 16, 2]):
    h = dense(x, w1, bias=np.ones(16, dtype=np.float32))
    out = dense(h, w2, relu=False)
    mean, peak = split_stats(out)
    return out, mean, peak

# CHECK-LABEL: graph {
# CHECK-NEXT:   input %x : f32[4,8]
# CHECK-NEXT:   input %w1 : f32[8,16]
# CHECK-NEXT:   input %w2 : f32[16,2]
# CHECK-NEXT:   const %cst : f32[] = [0.0]
# CHECK-NEXT:   %fill = Fill() {shape = [16], dtype = "float32", value = 1.0} : f32[16]
# CHECK-NEXT:   %y = MatMul(%x, %w1) : f32[4,16]
# CHECK-NEXT:   %y_1 = Add(%y, %fill) : f32[4,16]
# CHECK-NEXT:   %maximum = Maximum(%y_1, %cst) : f32[4,16]
# CHECK-NEXT:   %y_2 = MatMul(%maximum, %w2) : f32[4,2]
# CHECK-NEXT:   %reducemean = ReduceMean(%y_2) {axes = [-1], keepdims = false} : f32[4]
# CHECK-NEXT:   %reducemax = ReduceMax(%y_2) {axes = [-1], keepdims = false} : f32[4]
# CHECK-NEXT:   output out0 = %y_2
# CHECK-NEXT:   output out1 = %reducemean
# CHECK-NEXT:   output out2 = %reducemax
# CHECK-NEXT: }
