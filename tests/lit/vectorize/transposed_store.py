# d[j, i] = a[i, j]: the value, in loop order (i, j), is transposed to the target's axes.
# RUN: %asc-fe --report=vectorize --no-locations %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
# RUN: %asc-fe --no-locations %s | FileCheck %s --check-prefix=GRAPH
import numpy as np

a = np.random.rand(16, 8).astype(np.float32)
d = np.zeros((8, 16), dtype=np.float32)
for i in range(16):
    for j in range(8):
        d[j, i] = a[i, j] + 1

# REMARK: remark: loop vectorised: 16 x 8 iterations of i, j run as array operations
# GRAPH: Add(%rand, %cst) : f32[16,8]
# GRAPH: Transpose(%add) {perm = [1, 0]} : f32[8,16]
