# Unary math and broadcasting binary operators map onto registry operators.
# RUN: %asc-fe --emit=graph --no-locations --entry=f %s | FileCheck %s
import numpy as np
from pyasc import Tensor, float32

def f(a: Tensor[float32, 4, 8], b: Tensor[float32, 8]):
    x = np.exp(a) + np.log(b) - np.sqrt(a) * np.abs(b)
    y = a / b // 2 % 3
    z = -a ** 2
    return x, y, z, np.maximum(a, b), np.minimum(a, 0.5), np.tanh(a), np.sin(a)

# CHECK-LABEL: graph {
# CHECK-NEXT:   input %a : f32[4,8]
# CHECK-NEXT:   input %b : f32[8]
# CHECK-NEXT:   const %cst : f32[] = [2.0]
# CHECK-NEXT:   const %cst_1 : f32[] = [3.0]
# CHECK-NEXT:   const %cst_2 : f32[] = [0.5]
# CHECK-NEXT:   %exp = Exp(%a) : f32[4,8]
# CHECK-NEXT:   %log = Log(%b) : f32[8]
# CHECK-NEXT:   %add = Add(%exp, %log) : f32[4,8]
# CHECK-NEXT:   %sqrt = Sqrt(%a) : f32[4,8]
# CHECK-NEXT:   %abs = Abs(%b) : f32[8]
# CHECK-NEXT:   %mul = Mul(%sqrt, %abs) : f32[4,8]
# CHECK-NEXT:   %x = Sub(%add, %mul) : f32[4,8]
# CHECK-NEXT:   %div = Div(%a, %b) : f32[4,8]
# CHECK-NEXT:   %floordiv = FloorDiv(%div, %cst) : f32[4,8]
# CHECK-NEXT:   %y = Mod(%floordiv, %cst_1) : f32[4,8]
# CHECK-NEXT:   %pow = Pow(%a, %cst) : f32[4,8]
# CHECK-NEXT:   %z = Neg(%pow) : f32[4,8]
# CHECK-NEXT:   %maximum = Maximum(%a, %b) : f32[4,8]
# CHECK-NEXT:   %minimum = Minimum(%a, %cst_2) : f32[4,8]
# CHECK-NEXT:   %tanh = Tanh(%a) : f32[4,8]
# CHECK-NEXT:   %sin = Sin(%a) : f32[4,8]
# CHECK-NEXT:   output out0 = %x
# CHECK-NEXT:   output out1 = %y
# CHECK-NEXT:   output out2 = %z
# CHECK-NEXT:   output out3 = %maximum
# CHECK-NEXT:   output out4 = %minimum
# CHECK-NEXT:   output out5 = %tanh
# CHECK-NEXT:   output out6 = %sin
# CHECK-NEXT: }
