# A prefix sum a[i] = a[i - 1] + b[i] carries a dependence, but is a scan: np.cumsum.
# RUN: %asc-fe --report=vectorize --no-locations %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
# RUN: %asc-fe --no-locations %s | FileCheck %s --check-prefix=GRAPH
import numpy as np

a = np.random.rand(100).astype(np.float32)
b = np.random.rand(100).astype(np.float32)
for i in range(1, 100):
    a[i] = a[i - 1] + b[i]

# REMARK: remark: loop vectorised: 99 iterations of 'i' run as array operations; with a scan (np.cumsum) of 'a[i]'
# GRAPH: Concat
# GRAPH: SliceUpdate(%rand, %{{.*}}) {axes = [0], begin = [1], end = [100], step = [1], dynamic_axes = []} : f32[100]
