# The reference guide's typed function (§4.1), verbatim: Tensor[float32] without a shape is unranked.
# RUN: %asc-fe --emit=graph --entry=func %s | FileCheck %s
from pyasc import Tensor, float32

def func(a: Tensor[float32]) -> Tensor[float32]:
    return a * 2

# CHECK-LABEL: graph {
# CHECK-NEXT:   input %a : f32[*] loc("{{.*}}guide_func_annotation.py":5:10)
# CHECK-NEXT:   const %cst : f32[] = [2.0] loc("{{.*}}guide_func_annotation.py":6:16)
# CHECK-NEXT:   %mul = Mul(%a, %cst) : f32[*] loc("{{.*}}guide_func_annotation.py":6:12)
# CHECK-NEXT:   output out0 = %mul
# CHECK-NEXT: }
