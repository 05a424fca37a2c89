# An index computed in the body (k = 99 - i) indexes arrays as a reversed slice.
# RUN: %asc-fe --report=vectorize --no-locations %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
# RUN: %asc-fe --no-locations %s | FileCheck %s --check-prefix=GRAPH
import numpy as np

a = np.random.rand(100).astype(np.float32)
b = np.zeros(100, dtype=np.float32)
for i in range(100):
    k = 99 - i
    b[i] = a[k] + k

# REMARK: remark: loop vectorised: 100 iterations of 'i' run as array operations
# GRAPH: Slice(%rand) {axes = [0], begin = [99], end = [-1], step = [-1], dynamic_axes = []} : f32[100]
