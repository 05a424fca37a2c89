# Not vectorised: a float16 sum rounds at every step; the array form sums in another order.
# RUN: %asc-fe --report=vectorize --no-locations %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
import numpy as np

h = np.random.rand(2048).astype(np.float16)
s = np.zeros(1, dtype=np.float16)
for i in range(2048):
    s[0] += h[i]

# REMARK: remark: loop not vectorised: float16 sums into 's[0]' round at every step, and the array form sums in another order
