# Tensor[float32] without a shape is unranked (f32[*]); elementwise operations keep it unranked.
# RUN: %asc-fe --emit=graph --no-locations --entry=f %s | FileCheck %s
import numpy as np
from pyasc import Tensor, float32

def f(a: Tensor[float32], b: Tensor[float32]) -> Tensor[float32]:
    return np.exp(a) * b + 1

# CHECK-LABEL: graph {
# CHECK-NEXT:   input %a : f32[*]
# CHECK-NEXT:   input %b : f32[*]
# CHECK-NEXT:   const %cst : f32[] = [1.0]
# CHECK-NEXT:   %exp = Exp(%a) : f32[*]
# CHECK-NEXT:   %mul = Mul(%exp, %b) : f32[*]
# CHECK-NEXT:   %add = Add(%mul, %cst) : f32[*]
# CHECK-NEXT:   output out0 = %add
# CHECK-NEXT: }
