# The reference guide's mixed-precision example (§5.1), verbatim: the pragma before the def puts
# an amp_mode hint on every node the function produces, including the inlined helper's.
# RUN: %asc-fe --emit=graph --no-locations --entry=model_forward --input=x:float32[16,16] %s | FileCheck %s
import numpy as np

def layer1(x):
    return np.maximum(x @ x, 0)

# pragma: auto_mixed_precision mode=O2
def model_forward(x):
    return layer1(x)  # 自动选择fp16/int8

# CHECK-LABEL: graph {
# CHECK-NEXT:   input %x : f32[16,16]
# CHECK-NEXT:   const %cst : f32[] = [0.0]
# CHECK-NEXT:   %matmul = MatMul(%x, %x) [amp_mode = "O2"] : f32[16,16]
# CHECK-NEXT:   %maximum = Maximum(%matmul, %cst) [amp_mode = "O2"] : f32[16,16]
# CHECK-NEXT:   output out0 = %maximum
# CHECK-NEXT: }
