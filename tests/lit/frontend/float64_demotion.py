# float64 is computed in float32 on NPU targets, with one warning per program at the first use.
# RUN: %asc-fe --emit=graph --no-locations %s 2>&1 | FileCheck %s
import numpy as np
a = np.ones((2, 2))
b = np.array([1.5, 2.5])
c = a * b + np.float64(3)

# CHECK-LABEL: graph {
# CHECK-NEXT:   const %b : f32[2] = [1.5, 2.5]
# CHECK-NEXT:   const %cst : f32[] = [3.0]
# CHECK-NEXT:   %a = Fill() {shape = [2, 2], dtype = "float32", value = 1.0} : f32[2,2]
# CHECK-NEXT:   %mul = Mul(%a, %b) : f32[2,2]
# CHECK-NEXT:   %c = Add(%mul, %cst) : f32[2,2]
# CHECK-NEXT:   output c = %c
# CHECK-NEXT: }
# CHECK-NEXT: {{.*}}float64_demotion.py:4:5: warning: float64 is not supported on the NPU target 'ascend310'; float64 values are computed in float32
# CHECK-NEXT: a = np.ones((2, 2))
# CHECK-NEXT:     ^~~~~~~~~~~~~~~
# CHECK-NEXT: note: this warning is shown once per program; use float32 explicitly (e.g. .astype(np.float32)) to silence it
