# Creation functions become Fill/Range nodes or constants; dtypes follow NumPy's defaults.
# RUN: %asc-fe --emit=graph --no-locations --entry=make %s 2>&1 | FileCheck %s
import numpy as np
from pyasc import Tensor, float32

def make(x: Tensor[float32, 2, 3]):
    z = np.zeros((2, 3), dtype=np.float32)
    o = np.ones(3, np.int32)
    f = np.full((2, 2), 7)
    r = np.arange(0, 10, 2, dtype=np.float32)
    k = np.array([[1, 2, 3], [4, 5, 6]], dtype=np.float32)
    s = np.array(2, dtype=np.float32)
    like = np.ones_like(x) + np.full_like(x, 0.5)
    return z + x, o, f, r, k * s, like, np.empty(4, dtype=np.float16), np.arange(5)

# CHECK-LABEL: graph {
# CHECK-NEXT:   input %x : f32[2,3]
# CHECK-NEXT:   const %k : f32[2,3] = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
# CHECK-NEXT:   const %s : f32[] = [2.0]
# CHECK-NEXT:   %z = Fill() {shape = [2, 3], dtype = "float32", value = 0.0} : f32[2,3]
# CHECK-NEXT:   %o = Fill() {shape = [3], dtype = "int32", value = 1.0} : s32[3]
# CHECK-NEXT:   %f = Fill() {shape = [2, 2], value = 7.0, dtype = "int64"} : s64[2,2]
# CHECK-NEXT:   %r = Range() {start = 0.0, stop = 10.0, step = 2.0, dtype = "float32"} : f32[5]
# CHECK-NEXT:   %fill = Fill() {shape = [2, 3], value = 1.0, dtype = "float32"} : f32[2,3]
# CHECK-NEXT:   %fill_1 = Fill() {shape = [2, 3], value = 0.5, dtype = "float32"} : f32[2,3]
# CHECK-NEXT:   %like = Add(%fill, %fill_1) : f32[2,3]
# CHECK-NEXT:   %add = Add(%z, %x) : f32[2,3]
# CHECK-NEXT:   %mul = Mul(%k, %s) : f32[2,3]
# CHECK-NEXT:   %fill_2 = Fill() {shape = [4], dtype = "float16", value = 0.0} : f16[4]
# CHECK-NEXT:   %range = Range() {start = 0.0, stop = 5.0, step = 1.0, dtype = "int64"} : s64[5]
# CHECK-NEXT:   output out0 = %add
# CHECK-NEXT:   output out1 = %o
# CHECK-NEXT:   output out2 = %f
# CHECK-NEXT:   output out3 = %r
# CHECK-NEXT:   output out4 = %mul
# CHECK-NEXT:   output out5 = %like
# CHECK-NEXT:   output out6 = %fill_2
# CHECK-NEXT:   output out7 = %range
# CHECK-NEXT: }
