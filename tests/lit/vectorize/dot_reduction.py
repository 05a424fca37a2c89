# A sum into a scalar: s += a[i] * b[i] becomes one ReduceSum.
# RUN: %asc-fe --report=vectorize --no-locations %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
# RUN: %asc-fe --no-locations %s | FileCheck %s --check-prefix=GRAPH
import numpy as np

a = np.random.rand(256).astype(np.float32)
b = np.random.rand(256).astype(np.float32)
s = np.float32(0)
for i in range(256):
    s += a[i] * b[i]

# REMARK: remark: loop vectorised: 256 iterations of 'i' run as array operations; with a reduction into 's'
# GRAPH: Mul(%rand, %rand_1) : f32[256]
# GRAPH: ReduceSum(%mul) {keepdims = false} : f32[]
# GRAPH: Add(%s, %reducesum) : f32[]
