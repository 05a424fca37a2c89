# auto_mixed_precision on a function marks every node it produces with an amp_mode hint.
# RUN: %asc-fe --emit=graph --no-locations --entry=model_forward %s | FileCheck %s
import numpy as np
from pyasc import Tensor, float32

def layer1(x):
    return np.maximum(x @ x.T, 0)

# pragma: auto_mixed_precision mode=O2
def model_forward(x: Tensor[float32, 8, 8]):
    return layer1(x)  # auto-selected fp16/int8

# CHECK-LABEL: graph {
# CHECK-NEXT:   input %x : f32[8,8]
# CHECK-NEXT:   const %cst : f32[] = [0.0]
# CHECK-NEXT:   %transpose = Transpose(%x) [amp_mode = "O2"] : f32[8,8]
# CHECK-NEXT:   %matmul = MatMul(%x, %transpose) [amp_mode = "O2"] : f32[8,8]
# CHECK-NEXT:   %maximum = Maximum(%matmul, %cst) [amp_mode = "O2"] : f32[8,8]
# CHECK-NEXT:   output out0 = %maximum
# CHECK-NEXT: }
