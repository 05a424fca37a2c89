# A complex array is two real planes: z * z is (re*re - im*im, re*im + im*re), and the output is the
# planes stacked as (real, imaginary) pairs along a last axis of 2.
# RUN: %asc-fe --emit=graph --entry=square --input=a:float32[4] --input=b:float32[4] %s | FileCheck %s
import numpy as np

def square(a, b):
    z = a + 1j * b
    return z * z

# CHECK-LABEL: graph {
# CHECK:         %mul = Mul(%cst, %b) : f32[4]
# CHECK-NEXT:    %mul_1 = Mul(%cst_1, %b) : f32[4]
# CHECK-NEXT:    %add = Add(%a, %mul_1) : f32[4]
# CHECK-NEXT:    %mul_2 = Mul(%mul, %add) : f32[4]
# CHECK-NEXT:    %mul_3 = Mul(%add, %mul) : f32[4]
# CHECK-NEXT:    %add_1 = Add(%mul_3, %mul_2) : f32[4]
# CHECK-NEXT:    %mul_4 = Mul(%mul, %mul) : f32[4]
# CHECK-NEXT:    %mul_5 = Mul(%add, %add) : f32[4]
# CHECK-NEXT:    %sub = Sub(%mul_5, %mul_4) : f32[4]
# CHECK-NEXT:    %stack = Stack(%sub, %add_1) {axis = -1} : f32[4,2]
# CHECK-NEXT:    output out0 = %stack
