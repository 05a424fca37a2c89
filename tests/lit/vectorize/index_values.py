# The index used as a value is np.arange over the loop's range.
# RUN: %asc-fe --report=vectorize --no-locations %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
# RUN: %asc-fe --no-locations %s | FileCheck %s --check-prefix=GRAPH
import numpy as np

w = np.random.rand(10).astype(np.float32)
q = np.zeros(10, dtype=np.float32)
for i in range(10):
    q[i] = w[i] * i

# REMARK: remark: loop vectorised: 10 iterations of 'i' run as array operations
# GRAPH: Range() {start = 0.0, stop = 10.0, step = 1.0, dtype = "int64"}
