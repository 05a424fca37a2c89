# A reduction into the elements the target's indices select: c[i] += a[i, j] * b[j] sums over j.
# RUN: %asc-fe --report=vectorize --no-locations %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
# RUN: %asc-fe --no-locations %s | FileCheck %s --check-prefix=GRAPH
import numpy as np

a = np.random.rand(64, 32).astype(np.float32)
b = np.random.rand(32).astype(np.float32)
c = np.zeros(64, dtype=np.float32)
for i in range(64):
    for j in range(32):
        c[i] += a[i, j] * b[j]

# REMARK: remark: loop vectorised: 64 x 32 iterations of i, j run as array operations; with a reduction into 'c[i]'
# GRAPH: ReduceSum(%mul) {axes = [1], keepdims = false} : f32[64]
# GRAPH: Add(%c, %reducesum) : f32[64]
