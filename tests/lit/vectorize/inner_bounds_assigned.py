# Not vectorised: the inner loop's bound m is assigned in the body, so outer trips run different counts; the inner loop alone is vectorised.
# RUN: %asc-fe --report=vectorize --no-locations %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
import numpy as np

a = np.zeros((3, 4), dtype=np.float32)
m = 4
for i in range(3):
    for j in range(m):
        m = 2
        a[i, j] = 1.0

# REMARK: remark: loop not vectorised: the bounds of the loop over 'j' read 'm', which the body assigns
# REMARK: remark: loop vectorised: 4 iterations of 'j' run as array operations
