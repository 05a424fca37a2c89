# A loop whose body only accumulates into an array at indices computed from its items runs as one
# scatter: the items bound to whole arrays (zip's arrays, a range index to a Range and w[i] to the
# slice of w it walks), positions compared once, values summed per position. A loop that reads the
# array it writes stays a loop.
# RUN: %asc-fe --emit=graph --no-locations --entry=f --input=t:int32[6] --input=w:float32[8] %s | FileCheck %s
import numpy as np

def f(t, w):
    cm = np.zeros((3, 3), dtype=np.int32)
    for p, q in zip(t, t[::-1]):
        cm[p, q] += 1
    s = np.zeros(4, dtype=np.float32)
    for i in range(0, 6, 2):
        s[t[i]] -= w[i]
    r = np.zeros(3, dtype=np.float32)
    for i in range(3):
        r[t[i]] += r[0]
    return cm, s, r, p

# CHECK-LABEL: graph {
# CHECK:        %slice = Slice(%t) {axes = [0], begin = [5], end = [-1], step = [-1], dynamic_axes = []} : s32[6]
# CHECK-NOT:    Squeeze
# CHECK:        %equal = Equal(%reshape_2, %reshape_3) : b8[6,9]
# CHECK-NEXT:   %where_2 = Where(%equal, %reshape_1, %cst) : s32[6,9]
# CHECK-NEXT:   %reducesum = ReduceSum(%where_2) {axes = [0], keepdims = false} : s64[9]
# CHECK-NEXT:   %cast = Cast(%reducesum) {dtype = "int32"} : s32[9]
# CHECK-NEXT:   %add_3 = Add(%reshape, %cast) : s32[9]
# CHECK-NEXT:   %reshape_4 = Reshape(%add_3) {shape = [3, 3]} : s32[3,3]
# CHECK-NEXT:   %slice_1 = Slice(%t) {axes = [0], begin = [5], end = [6], step = [1], dynamic_axes = []} : s32[1]
# CHECK-NEXT:   %squeeze = Squeeze(%slice_1) {axes = [0]} : s32[]
# CHECK:        %slice_3 = Slice(%t) {axes = [0], begin = [0], end = [5], step = [2], dynamic_axes = []} : s32[3]
# CHECK-NEXT:   %slice_4 = Slice(%w) {axes = [0], begin = [0], end = [5], step = [2], dynamic_axes = []} : f32[3]
# CHECK:        %equal_1 = Equal(%reshape_8, %reshape_9) : b8[3,4]
# CHECK-NEXT:   %where_4 = Where(%equal_1, %reshape_7, %cst_4) : f32[3,4]
# CHECK-NEXT:   %reducesum_1 = ReduceSum(%where_4) {axes = [0], keepdims = false} : f32[4]
# CHECK-NEXT:   %sub = Sub(%reshape_6, %reducesum_1) : f32[4]
# CHECK:        %r_2 = Loop(%r) {start = 0, stop = 3, step = 1}
# CHECK:        output out0 = %reshape_4
# CHECK-NEXT:   output out1 = %reshape_10
# CHECK-NEXT:   output out2 = %r_2
# CHECK-NEXT:   output out3 = %squeeze
