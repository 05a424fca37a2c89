# NumPy 2 promotion: Python scalars are weak and take the array's dtype; arrays promote;
# integer true division and mixed float16/int32 give float64, computed in float32 on the NPU.
# RUN: %asc-fe --emit=graph --no-locations --entry=f %s 2>&1 | FileCheck %s
import numpy as np
from pyasc import Tensor, float16, int32, int8

def f(a: Tensor[float16, 4], i: Tensor[int32, 4], s: Tensor[int8, 4]):
    return a + 1, a * 1.5, i + 1, i + 1.5, i / 2, a + i, s + 100, s.astype(np.int32) + i

# CHECK-LABEL: graph {
# CHECK-NEXT:   input %a : f16[4]
# CHECK-NEXT:   input %i : s32[4]
# CHECK-NEXT:   input %s : s8[4]
# CHECK-NEXT:   const %cst : f16[] = [1.0]
# CHECK-NEXT:   const %cst_1 : f16[] = [1.5]
# CHECK-NEXT:   const %cst_2 : s32[] = [1]
# CHECK-NEXT:   const %cst_3 : f32[] = [1.5]
# CHECK-NEXT:   const %cst_4 : s32[] = [2]
# CHECK-NEXT:   const %cst_5 : s8[] = [100]
# CHECK-NEXT:   %add = Add(%a, %cst) : f16[4]
# CHECK-NEXT:   %mul = Mul(%a, %cst_1) : f16[4]
# CHECK-NEXT:   %add_1 = Add(%i, %cst_2) : s32[4]
# CHECK-NEXT:   %cast = Cast(%i) {dtype = "float32"} : f32[4]
# CHECK-NEXT:   %add_2 = Add(%cast, %cst_3) : f32[4]
# CHECK-NEXT:   %cast_1 = Cast(%i) {dtype = "float32"} : f32[4]
# CHECK-NEXT:   %cast_2 = Cast(%cst_4) {dtype = "float32"} : f32[]
# CHECK-NEXT:   %div = Div(%cast_1, %cast_2) : f32[4]
# CHECK-NEXT:   %cast_3 = Cast(%a) {dtype = "float32"} : f32[4]
# CHECK-NEXT:   %cast_4 = Cast(%i) {dtype = "float32"} : f32[4]
# CHECK-NEXT:   %add_3 = Add(%cast_3, %cast_4) : f32[4]
# CHECK-NEXT:   %add_4 = Add(%s, %cst_5) : s8[4]
# CHECK-NEXT:   %cast_5 = Cast(%s) {dtype = "int32"} : s32[4]
# CHECK-NEXT:   %add_5 = Add(%cast_5, %i) : s32[4]
# CHECK-NEXT:   output out0 = %add
# CHECK-NEXT:   output out1 = %mul
# CHECK-NEXT:   output out2 = %add_1
# CHECK-NEXT:   output out3 = %add_2
# CHECK-NEXT:   output out4 = %div
# CHECK-NEXT:   output out5 = %add_3
# CHECK-NEXT:   output out6 = %add_4
# CHECK-NEXT:   output out7 = %add_5
# CHECK-NEXT: }
# CHECK-NEXT: {{.*}}promotion_weak_scalars.py:8:35: warning: float64 is not supported on the NPU target 'ascend310'; float64 values are computed in float32
# CHECK-NEXT:     return a + 1, a * 1.5, i + 1, i + 1.5, i / 2, a + i, s + 100, s.astype(np.int32) + i
# CHECK-NEXT:                                   ^~~~~~~
# CHECK-NEXT: note: this warning is shown once per program; use float32 explicitly (e.g. .astype(np.float32)) to silence it
