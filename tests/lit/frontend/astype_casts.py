# astype and dtype constructors insert Cast; casting to the same dtype is a plain copy.
# RUN: %asc-fe --emit=graph --no-locations --entry=f %s | FileCheck %s
import numpy as np
from pyasc import Tensor, float32

def f(x: Tensor[float32, 4]):
    h = x.astype(np.float16)
    i = x.astype("int32")
    same = x.astype(np.float32)
    b = np.int8(3)
    return h, i, same + 1, i + b, np.float16(x)

# CHECK-LABEL: graph {
# CHECK-NEXT:   input %x : f32[4]
# CHECK-NEXT:   const %b : s8[] = [3]
# CHECK-NEXT:   const %cst : f32[] = [1.0]
# CHECK-NEXT:   %h = Cast(%x) {dtype = "float16"} : f16[4]
# CHECK-NEXT:   %i = Cast(%x) {dtype = "int32"} : s32[4]
# CHECK-NEXT:   %add = Add(%x, %cst) : f32[4]
# CHECK-NEXT:   %cast = Cast(%b) {dtype = "int32"} : s32[]
# CHECK-NEXT:   %add_1 = Add(%i, %cast) : s32[4]
# CHECK-NEXT:   %cast_1 = Cast(%x) {dtype = "float16"} : f16[4]
# CHECK-NEXT:   output out0 = %h
# CHECK-NEXT:   output out1 = %i
# CHECK-NEXT:   output out2 = %add
# CHECK-NEXT:   output out3 = %add_1
# CHECK-NEXT:   output out4 = %cast_1
# CHECK-NEXT: }
