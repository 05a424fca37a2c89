# Not vectorised: two statements write a[i + 1] and a[i] of one element, and the array form would swap which write remains.
# RUN: %asc-fe --report=vectorize --no-locations %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
import numpy as np

a = np.zeros(65, dtype=np.float32)
b = np.random.rand(64).astype(np.float32)
c = np.random.rand(64).astype(np.float32)
for i in range(64):
    a[i] = b[i]
    a[i + 1] = c[i]

# REMARK: remark: loop not vectorised: 'a[i + 1]' at i = 0 and 'a[i]' at i = 1 write the same element
