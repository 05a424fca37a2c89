# The reference guide's module script (§2.1), verbatim: a script's outputs are its unread arrays.
# RUN: %asc-fe --emit=graph %s | FileCheck %s
import numpy as np
a = np.random.rand(256,256)
b = np.random.rand(256,256)
c = np.matmul(a,b)

# CHECK-LABEL: graph {
# CHECK-NEXT:   input %a : f32[256,256] random(rand, unseeded, stream = 0, offset = 0) loc("{{.*}}guide_matmul_script.py":4:5)
# CHECK-NEXT:   input %b : f32[256,256] random(rand, unseeded, stream = 0, offset = 65536) loc("{{.*}}guide_matmul_script.py":5:5)
# CHECK-NEXT:   %c = MatMul(%a, %b) : f32[256,256] loc("{{.*}}guide_matmul_script.py":6:5)
# CHECK-NEXT:   output c = %c
# CHECK-NEXT: }
