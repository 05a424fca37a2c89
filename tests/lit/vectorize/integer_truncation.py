# Not vectorised: an integer array takes a float term at every step, truncating each time; the array form would truncate the sum once.
# RUN: %asc-fe --report=vectorize --no-locations %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
import numpy as np

m = np.random.rand(8, 8).astype(np.float32) * 4
c = np.zeros(8, dtype=np.int32)
for i in range(8):
    for j in range(8):
        c[i] += m[i, j]

# REMARK: remark: loop not vectorised: the integer array 'c[i]' is truncated at every step, and the array form would truncate once
