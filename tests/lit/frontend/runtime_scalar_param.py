# Parameters annotated int/float are runtime scalars: graph inputs that promote like Python scalars.
# RUN: %asc-fe --emit=graph --no-locations --entry=axpy %s | FileCheck %s
from pyasc import Tensor, float16

def axpy(alpha: float, x: Tensor[float16, 64], y: Tensor[float16, 64]):
    return alpha * x + y

# CHECK-LABEL: graph {
# CHECK-NEXT:   input %alpha : f32[] scalar
# CHECK-NEXT:   input %x : f16[64]
# CHECK-NEXT:   input %y : f16[64]
# CHECK-NEXT:   %cast = Cast(%alpha) {dtype = "float16"} : f16[]
# CHECK-NEXT:   %mul = Mul(%cast, %x) : f16[64]
# CHECK-NEXT:   %add = Add(%mul, %y) : f16[64]
# CHECK-NEXT:   output out0 = %add
# CHECK-NEXT: }
