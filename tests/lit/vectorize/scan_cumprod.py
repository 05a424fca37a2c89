# A running product p[i] = p[i - 1] * r[i] is np.cumprod.
# RUN: %asc-fe --report=vectorize --no-locations %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
import numpy as np

r = np.random.rand(50).astype(np.float32) + 0.5
p = np.ones(50, dtype=np.float32)
for i in range(1, 50):
    p[i] = p[i - 1] * r[i]

# REMARK: remark: loop vectorised: 49 iterations of 'i' run as array operations; with a scan (np.cumprod) of 'p[i]'
