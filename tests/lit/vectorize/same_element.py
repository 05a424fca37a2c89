# Not vectorised: every iteration writes c[0], so only the last write remains.
# RUN: %asc-fe --report=vectorize --no-locations %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
import numpy as np

a = np.random.rand(8).astype(np.float32)
c = np.zeros(4, dtype=np.float32)
for i in range(8):
    c[0] = a[i]

# REMARK: remark: loop not vectorised: 'c[0]' is written by every iteration of 'i'; only the last write would remain
