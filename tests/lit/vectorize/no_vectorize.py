# --no-vectorize (pyasc O0 and O1) keeps the loop; the pragma still asks for the array form.
# RUN: %asc-fe --no-vectorize --no-locations %s | FileCheck %s
import numpy as np

a = np.random.rand(64).astype(np.float32)
b = np.random.rand(64).astype(np.float32)
for i in range(64):
    a[i] = a[i] + 1
# pragma: parallelize factor=2
for i in range(64):
    b[i] = b[i] + 1

# CHECK: Loop(%rand) {start = 0, stop = 64, step = 1}
# CHECK-NOT: Loop
# CHECK: Add(%rand_1, %cst) : f32[64]
