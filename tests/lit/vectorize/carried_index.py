# Not vectorised: k, read as an index before the body assigns it, carries the previous iteration's value.
# RUN: %asc-fe --report=vectorize --no-locations %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
import numpy as np

a = np.zeros(16, dtype=np.float32)
b = np.random.rand(16).astype(np.float32)
k = 3
for i in range(16):
    a[i] = b[k]
    k = i

# REMARK: remark: loop not vectorised: 'b[k]' is indexed by 'k', which carries a value from one iteration to the next
