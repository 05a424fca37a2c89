# Not vectorised: a time loop over whole arrays carries them from step to step.
# RUN: %asc-fe --report=vectorize --no-locations %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
import numpy as np

x = np.random.rand(64).astype(np.float32)
y = np.random.rand(64).astype(np.float32)
for t in range(10):
    x = x * 0.9 + y

# REMARK: remark: loop not vectorised: 'x' carries a value from one iteration to the next, other than by a sum, product, maximum or minimum
