# --input gives dtype and shape, with symbolic dimensions kept by name.
# RUN: %asc-fe --emit=graph --no-locations --entry=f --input=a:float32[N,128] --input=b:float16[128] %s | FileCheck %s
import numpy as np

def f(a, b):
    return a * b + 1, np.sum(a, axis=1)

# CHECK-LABEL: graph {
# CHECK-NEXT:   input %a : f32[N,128]
# CHECK-NEXT:   input %b : f16[128]
# CHECK-NEXT:   const %cst : f32[] = [1.0]
# CHECK-NEXT:   %cast = Cast(%b) {dtype = "float32"} : f32[128]
# CHECK-NEXT:   %mul = Mul(%a, %cast) : f32[N,128]
# CHECK-NEXT:   %add = Add(%mul, %cst) : f32[N,128]
# CHECK-NEXT:   %reducesum = ReduceSum(%a) {axes = [1], keepdims = false} : f32[N]
# CHECK-NEXT:   output out0 = %add
# CHECK-NEXT:   output out1 = %reducesum
# CHECK-NEXT: }
