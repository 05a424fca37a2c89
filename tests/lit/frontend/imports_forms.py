# Every import form: import numpy, import ... as, from numpy import, from pyasc import, math.
# RUN: %asc-fe --emit=graph --no-locations --entry=f %s | FileCheck %s
import math
import numpy
import numpy as np
from numpy import exp, float32 as f32
from pyasc import Tensor
import pyasc.nn as nn

def f(x: Tensor[f32, 4]):
    return exp(x) * math.sqrt(4) + numpy.log(x) + nn.relu(x) * np.pi

# CHECK-LABEL: graph {
# CHECK-NEXT:   input %x : f32[4]
# CHECK-NEXT:   const %cst : f32[] = [2.0]
# CHECK-NEXT:   const %cst_1 : f32[] = [3.1415927]
# CHECK-NEXT:   %exp = Exp(%x) : f32[4]
# CHECK-NEXT:   %mul = Mul(%exp, %cst) : f32[4]
# CHECK-NEXT:   %log = Log(%x) : f32[4]
# CHECK-NEXT:   %add = Add(%mul, %log) : f32[4]
# CHECK-NEXT:   %relu = Relu(%x) : f32[4]
# CHECK-NEXT:   %mul_1 = Mul(%relu, %cst_1) : f32[4]
# CHECK-NEXT:   %add_1 = Add(%add, %mul_1) : f32[4]
# CHECK-NEXT:   output out0 = %add_1
# CHECK-NEXT: }
