# With the guide's pragma the dependence test still runs; the loop is vectorised, with no warning.
# RUN: %asc-fe --report=vectorize --no-locations %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
# RUN: %asc-fe --no-locations %s | FileCheck %s --check-prefix=GRAPH
import numpy as np

data = np.random.rand(1024).astype(np.float32)
# pragma: parallelize factor=4
for i in range(1024):
    data[i] = data[i] * 2

# REMARK-NOT: warning
# REMARK: guide_loop_pragma.py:8:1: remark: loop vectorised: 1024 iterations of 'i' run as array operations
# GRAPH-NOT: Loop
# GRAPH: Mul(%rand, %cst) : f32[1024]
