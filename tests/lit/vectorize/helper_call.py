# Not vectorised: the body calls a function of the program, not an elementwise NumPy function.
# RUN: %asc-fe --report=vectorize --no-locations %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
import numpy as np

def scale(v):
    return v * 2

a = np.random.rand(8).astype(np.float32)
for i in range(8):
    a[i] = scale(a[i])

# REMARK: remark: loop not vectorised: the call 'scale' is not an elementwise NumPy or math function
