# Reads at offsets become slices: b[i] = a[i + 1] - a[i] over range(0, n - 1).
# RUN: %asc-fe --report=vectorize --no-locations %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
# RUN: %asc-fe --no-locations %s | FileCheck %s --check-prefix=GRAPH
import numpy as np

a = np.random.rand(100).astype(np.float32)
b = np.zeros(99, dtype=np.float32)
for i in range(99):
    b[i] = a[i + 1] - a[i]

# REMARK: remark: loop vectorised: 99 iterations of 'i' run as array operations
# GRAPH: Slice(%rand) {axes = [0], begin = [1], end = [100], step = [1], dynamic_axes = []} : f32[99]
# GRAPH: Slice(%rand) {axes = [0], begin = [0], end = [99], step = [1], dynamic_axes = []} : f32[99]
# GRAPH: Sub
