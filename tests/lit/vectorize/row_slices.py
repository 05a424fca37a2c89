# Not vectorised: a[i, :] selects a row, not one element.
# RUN: %asc-fe --report=vectorize --no-locations %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
import numpy as np

a = np.random.rand(8, 4).astype(np.float32)
for i in range(8):
    a[i, :] = a[i, :] * 2

# REMARK: remark: loop not vectorised: 'a[i, :]': the index ':' is not an integer linear in the loop indices
