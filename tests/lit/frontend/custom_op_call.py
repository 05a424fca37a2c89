# With --custom-op-config, a program calls a custom operator by its Python name; keywords fill
# its attributes and unset ones take the descriptor's defaults.
# RUN: %asc-fe --emit=graph --no-locations --custom-op-config=%S/Inputs/custom_ops.json --entry=f --input=x:float16[64] %s | FileCheck %s
import numpy as np


def f(x):
    return custom_relu(x) + custom_relu(x * 2, alpha=0.5)

# CHECK-LABEL: graph {
# CHECK-NEXT:   input %x : f16[64]
# CHECK-NEXT:   const %cst : f16[] = [2.0]
# CHECK-NEXT:   %customrelu = CustomRelu(%x) {alpha = 0.0} : f16[64]
# CHECK-NEXT:   %mul = Mul(%x, %cst) : f16[64]
# CHECK-NEXT:   %customrelu_1 = CustomRelu(%mul) {alpha = 0.5} : f16[64]
# CHECK-NEXT:   %add = Add(%customrelu, %customrelu_1) : f16[64]
# CHECK-NEXT:   output out0 = %add
# CHECK-NEXT: }
