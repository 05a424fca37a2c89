# Not vectorised: a[i, i] walks a diagonal.
# RUN: %asc-fe --report=vectorize --no-locations %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
import numpy as np

a = np.random.rand(8, 8).astype(np.float32)
d = np.zeros(8, dtype=np.float32)
for i in range(8):
    d[i] = a[i, i]

# REMARK: remark: loop not vectorised: 'a[i, i]' walks a diagonal: 'i' indexes two axes
