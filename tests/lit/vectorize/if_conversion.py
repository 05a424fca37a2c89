# An if of assignments is if-converted: its condition is computed once, then each branch's assignment keeps the old value where the condition says so (np.where).
# RUN: %asc-fe --report=vectorize --no-locations %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
# RUN: %asc-fe --no-locations %s | FileCheck %s --check-prefix=GRAPH
import numpy as np

a = np.random.rand(100).astype(np.float32) - 0.5
b = np.zeros(100, dtype=np.float32)
for i in range(100):
    if a[i] > 0:
        b[i] = a[i] * 2
    else:
        b[i] = -a[i]

# REMARK: remark: loop vectorised: 100 iterations of 'i' run as array operations
# GRAPH: = Greater(%a, %cst_1) : b8[100]
# GRAPH: Where(
# GRAPH: Where(
# GRAPH-NOT: Loop
