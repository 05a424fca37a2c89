# A 2-D nest: the row vector b[j] broadcasts along i as a [1, 32] array.
# RUN: %asc-fe --report=vectorize --no-locations %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
# RUN: %asc-fe --no-locations %s | FileCheck %s --check-prefix=GRAPH
import numpy as np

a = np.random.rand(64, 32).astype(np.float32)
b = np.random.rand(32).astype(np.float32)
c = np.zeros((64, 32), dtype=np.float32)
for i in range(64):
    for j in range(32):
        c[i, j] = a[i, j] * b[j]

# REMARK: remark: loop vectorised: 64 x 32 iterations of i, j run as array operations
# GRAPH: Reshape(%rand_1) {shape = [1, 32]} : f32[1,32]
# GRAPH: Mul(%rand, %reshape) : f32[64,32]
