# The reference guide's pragma example (§3.3), verbatim: the dependence test proves the iterations
# independent, so the loop runs as one array multiply over every core.
# RUN: %asc-fe --emit=graph %s | FileCheck %s
import numpy as np
data = np.ones(1024, dtype=np.float32)

# pragma: parallelize factor=4
for i in range(1024):
    data[i] = data[i] * 2

# CHECK-LABEL: graph {
# CHECK-NEXT:   const %cst : f32[] = [2.0] loc("{{.*}}guide_parallelize_pragma.py":9:25)
# CHECK-NEXT:   %data = Fill() {shape = [1024], dtype = "float32", value = 1.0} : f32[1024] loc("{{.*}}guide_parallelize_pragma.py":5:8)
# CHECK-NEXT:   %mul = Mul(%data, %cst) : f32[1024] loc("{{.*}}guide_parallelize_pragma.py":9:15)
# CHECK-NEXT:   output data = %mul
# CHECK-NEXT: }
