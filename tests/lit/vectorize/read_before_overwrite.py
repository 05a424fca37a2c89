# Not vectorised: the second statement reads a[i + 2] before the first overwrites it a trip later; the array form would write first.
# RUN: %asc-fe --report=vectorize --no-locations %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
import numpy as np

a = np.random.rand(64).astype(np.float32)
b = np.zeros(60, dtype=np.float32)
for i in range(60):
    a[i + 1] = b[i] * 2
    b[i] = a[i + 2]

# REMARK: remark: loop not vectorised: 'a[i + 2]' at i = 0 reads an element before 'a[i + 1]' at i = 1 overwrites it, a later iteration
