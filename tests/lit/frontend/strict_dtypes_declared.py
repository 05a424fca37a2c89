# Under --strict-dtypes the reference guide's fixes compile: a scalar given a dtype with np.array,
# and arrays declared with Tensor[...] annotations (here with a symbolic dimension "N").
# RUN: %asc-fe --emit=graph --no-locations --strict-dtypes --entry=func %s | FileCheck %s
import numpy as np
from pyasc import Tensor, float32

def func(a: Tensor[float32, "N", 128], bias: Tensor[float32, 128]) -> Tensor[float32]:
    b = np.array(2, dtype=np.float32)
    return a * b + bias

# CHECK-LABEL: graph {
# CHECK-NEXT:   input %a : f32[N,128]
# CHECK-NEXT:   input %bias : f32[128]
# CHECK-NEXT:   const %b : f32[] = [2.0]
# CHECK-NEXT:   %mul = Mul(%a, %b) : f32[N,128]
# CHECK-NEXT:   %add = Add(%mul, %bias) : f32[N,128]
# CHECK-NEXT:   output out0 = %add
# CHECK-NEXT: }
