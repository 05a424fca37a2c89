# A name bound in the body is an array over the iterations; after the loop it has its last value, and the index its last one.
# RUN: %asc-fe --report=vectorize --no-locations %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
# RUN: %asc-fe --no-locations %s | FileCheck %s --check-prefix=GRAPH
import numpy as np

a = np.random.rand(32).astype(np.float32)
b = np.zeros(32, dtype=np.float32)
for i in range(32):
    t = a[i] * 0.5
    b[i] = t * t
u = t + i

# REMARK: remark: loop vectorised: 32 iterations of 'i' run as array operations
# GRAPH: %t = Mul(%rand, %cst) : f32[32]
# GRAPH: Slice(%t) {axes = [0], begin = [31], end = [32], step = [1], dynamic_axes = []} : f32[1]
# GRAPH: output u =
