# Not vectorised: x = x * 0.5 + a[i] carries x, and is no sum, product, maximum or minimum.
# RUN: %asc-fe --report=vectorize --no-locations %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
import numpy as np

a = np.random.rand(64).astype(np.float32)
x = np.float32(0)
for i in range(64):
    x = x * 0.5 + a[i]

# REMARK: remark: loop not vectorised: 'x' carries a value from one iteration to the next, other than by a sum, product, maximum or minimum
