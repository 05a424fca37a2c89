# linspace, eye and identity are graph constants computed as NumPy does; float64 values that are only
# cast to float32 (np.linspace(...).astype(np.float32)) are exact, so they do not warn.
# RUN: %asc-fe --emit=graph --no-locations %s 2>&1 | FileCheck %s
import numpy as np
x = np.linspace(0, 1, 5, dtype=np.float32)
y = np.eye(3, 4, k=1, dtype=np.float32) @ np.ones((4, 2), dtype=np.float32)
z = np.linspace(-1, 1, 7).astype(np.float32) * np.identity(7, dtype=np.float32)
w = np.array([0.5, 1.5]).astype(np.float32)

# CHECK-LABEL: graph {
# CHECK-NEXT:   const %x : f32[5] = [0.0, 0.25, 0.5, 0.75, 1.0]
# CHECK-NEXT:   const %cst : f32[3,4] = [0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0]
# CHECK-NEXT:   const %cst_1 : f32[7] = [-1.0, -0.6666667, -0.33333334, 0.0, 0.33333334, 0.6666667, 1.0]
# CHECK-NEXT:   const %cst_2 : f32[7,7] = [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0]
# CHECK-NEXT:   const %cst_3 : f32[2] = [0.5, 1.5]
# CHECK-NEXT:   %fill = Fill() {shape = [4, 2], dtype = "float32", value = 1.0} : f32[4,2]
# CHECK-NEXT:   %y = MatMul(%cst, %fill) : f32[3,2]
# CHECK-NEXT:   %z = Mul(%cst_1, %cst_2) : f32[7,7]
# CHECK-NEXT:   output x = %x
# CHECK-NEXT:   output y = %y
# CHECK-NEXT:   output z = %z
# CHECK-NEXT:   output w = %cst_3
# CHECK-NEXT: }
