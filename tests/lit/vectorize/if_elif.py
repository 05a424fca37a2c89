# Not vectorised: an elif is an if inside the else branch, which the if-conversion does not take.
# RUN: %asc-fe --report=vectorize --no-locations %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
import numpy as np

a = np.random.rand(16).astype(np.float32)
b = np.zeros(16, dtype=np.float32)
for i in range(16):
    if a[i] > 0.5:
        b[i] = 1.0
    elif a[i] > 0.25:
        b[i] = 0.5

# REMARK: remark: loop not vectorised: an if in its body has a statement other than an assignment (elif included)
