# Not vectorised: a[i] = a[i - 1] * 0.5 + a[i] needs the previous iteration's value, and is no plain sum or product scan.
# RUN: %asc-fe --report=vectorize --no-locations %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
# RUN: %asc-fe --no-locations %s | FileCheck %s --check-prefix=GRAPH
import numpy as np

a = np.random.rand(100).astype(np.float32)
for i in range(1, 100):
    a[i] = a[i - 1] * 0.5 + a[i]

# REMARK: remark: loop not vectorised: 'a[i - 1]' at i = 2 reads what 'a[i]' at i = 1 wrote, an earlier iteration
# REMARK-NEXT: for i in range(1, 100):
# REMARK: linear_recurrence.py:8:12: note: read here
# REMARK: linear_recurrence.py:8:5: note: written here
# GRAPH: Loop(%rand) {start = 1, stop = 100, step = 1}
