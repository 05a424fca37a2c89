# The reference guide's element loop runs as one array multiply, as data[:1024] *= 2 does.
# RUN: %asc-fe --report=vectorize --no-locations %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
# RUN: %asc-fe --no-locations %s | FileCheck %s --check-prefix=GRAPH
import numpy as np

data = np.random.rand(1024).astype(np.float32)
for i in range(1024):
    data[i] = data[i] * 2

# REMARK: guide_loop.py:7:1: remark: loop vectorised: 1024 iterations of 'i' run as array operations
# GRAPH-NOT: Loop
# GRAPH: %mul = Mul(%rand, %cst) : f32[1024]
# GRAPH-NEXT: output data = %mul
