# f[i] = f[i + 1] * 2 reads each element before a later iteration overwrites it: the array form reads first too.
# RUN: %asc-fe --report=vectorize --no-locations %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
import numpy as np

f = np.random.rand(100).astype(np.float32)
for i in range(99):
    f[i] = f[i + 1] * 2

# REMARK: remark: loop vectorised: 99 iterations of 'i' run as array operations
