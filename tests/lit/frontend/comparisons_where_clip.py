# Comparisons give bool arrays; where and clip broadcast; &, | and ~ combine masks.
# RUN: %asc-fe --emit=graph --no-locations --entry=f %s | FileCheck %s
import numpy as np
from pyasc import Tensor, float32

def f(a: Tensor[float32, 16], b: Tensor[float32, 16]):
    mask = (a > 0) & ~(b <= 1) | (a == b)
    return np.where(mask, a, b), np.clip(a, -1, 1), a.clip(0, None), mask

# CHECK-LABEL: graph {
# CHECK-NEXT:   input %a : f32[16]
# CHECK-NEXT:   input %b : f32[16]
# CHECK-NEXT:   const %cst : f32[] = [0.0]
# CHECK-NEXT:   const %cst_1 : f32[] = [1.0]
# CHECK-NEXT:   const %cst_2 : f32[] = [-1.0]
# CHECK-NEXT:   %greater = Greater(%a, %cst) : b8[16]
# CHECK-NEXT:   %lessequal = LessEqual(%b, %cst_1) : b8[16]
# CHECK-NEXT:   %logicalnot = LogicalNot(%lessequal) : b8[16]
# CHECK-NEXT:   %bitwiseand = BitwiseAnd(%greater, %logicalnot) : b8[16]
# CHECK-NEXT:   %equal = Equal(%a, %b) : b8[16]
# CHECK-NEXT:   %mask = BitwiseOr(%bitwiseand, %equal) : b8[16]
# CHECK-NEXT:   %where = Where(%mask, %a, %b) : f32[16]
# CHECK-NEXT:   %clip = Clip(%a, %cst_2, %cst_1) : f32[16]
# CHECK-NEXT:   %maximum = Maximum(%a, %cst) : f32[16]
# CHECK-NEXT:   output out0 = %where
# CHECK-NEXT:   output out1 = %clip
# CHECK-NEXT:   output out2 = %maximum
# CHECK-NEXT:   output out3 = %mask
# CHECK-NEXT: }
