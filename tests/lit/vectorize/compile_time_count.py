# Not vectorised: a counter of Python ints is compile-time work, unrolled as before.
# RUN: %asc-fe --report=vectorize --no-locations %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
import numpy as np

n = 0
for i in range(8):
    n += i
a = np.zeros(n, dtype=np.float32)

# REMARK: remark: loop not vectorised: it updates the compile-time value 'n'
