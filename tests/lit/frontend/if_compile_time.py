# if on compile-time values picks one branch; only that branch reaches the graph.
# RUN: %asc-fe --emit=graph --no-locations --entry=act --const=kind=2 %s | FileCheck %s
import numpy as np
from pyasc import Tensor, float32

def act(x: Tensor[float32, 8], kind):
    if kind == 1:
        return np.maximum(x, 0)
    elif kind == 2 and x.ndim == 1:
        return np.tanh(x)
    else:
        return x

# CHECK-LABEL: graph {
# CHECK-NEXT:   input %x : f32[8]
# CHECK-NEXT:   %tanh = Tanh(%x) : f32[8]
# CHECK-NEXT:   output out0 = %tanh
# CHECK-NEXT: }
