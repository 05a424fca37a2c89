# x if c else y in the body becomes np.where(c, x, y); math.sqrt becomes np.sqrt.
# RUN: %asc-fe --report=vectorize --no-locations %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
# RUN: %asc-fe --no-locations %s | FileCheck %s --check-prefix=GRAPH
import math
import numpy as np

a = np.random.rand(50).astype(np.float32)
g = np.zeros(50, dtype=np.float32)
for k in range(50):
    g[k] = math.sqrt(a[k]) if a[k] > 0.5 else -a[k]

# REMARK: remark: loop vectorised: 50 iterations of 'k' run as array operations
# GRAPH: Greater(%rand, %cst)
# GRAPH: Sqrt(%rand)
# GRAPH: Neg(%rand)
# GRAPH: Where(%greater, %sqrt, %neg) : f32[50]
