# Not vectorised: a[i - 1] at i = 0 is a[-1], the last element, which no slice expresses with the rest;
# the loop kept as a loop then refuses the negative index.
# RUN: not %asc-fe --report=vectorize --no-locations %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
import numpy as np

a = np.random.rand(10).astype(np.float32)
b = np.zeros(10, dtype=np.float32)
for i in range(10):
    b[i] = a[i - 1]

# REMARK: remark: loop not vectorised: 'a[i - 1]': the index 'i - 1' reaches -1, and a negative index wraps
# REMARK: negative_index.py:9:14: error: this index is negative when 'i' = 0
