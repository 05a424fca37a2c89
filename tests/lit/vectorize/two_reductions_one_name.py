# Not vectorised: s += a[i] then s *= b[i] are not one reduction.
# RUN: %asc-fe --report=vectorize --no-locations %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
import numpy as np

a = np.random.rand(16).astype(np.float32)
b = np.random.rand(16).astype(np.float32)
s = np.float32(0)
for i in range(16):
    s += a[i]
    s *= b[i]

# REMARK: remark: loop not vectorised: the reduction into 's' is also used by another statement
