# Not vectorised: a[i * i] is no slice.
# RUN: %asc-fe --report=vectorize --no-locations %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
import numpy as np

a = np.random.rand(100).astype(np.float32)
b = np.zeros(10, dtype=np.float32)
for i in range(10):
    b[i] = a[i * i]

# REMARK: remark: loop not vectorised: 'a[i * i]': the index 'i * i' is not an integer linear in the loop indices
