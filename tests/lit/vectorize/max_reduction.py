# m = max(m, a[i]) is a maximum reduction.
# RUN: %asc-fe --report=vectorize --no-locations %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
# RUN: %asc-fe --no-locations %s | FileCheck %s --check-prefix=GRAPH
import numpy as np

a = np.random.rand(128).astype(np.float32)
m = -1.0
for i in range(128):
    m = max(m, a[i])

# REMARK: remark: loop vectorised: 128 iterations of 'i' run as array operations; with a reduction into 'm'
# GRAPH: ReduceMax(%rand)
# GRAPH: Maximum
