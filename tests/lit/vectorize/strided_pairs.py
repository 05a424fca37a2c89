# A step of 2: z[i] += z[i + 1] reads and writes strided slices, which never overlap.
# RUN: %asc-fe --report=vectorize --no-locations %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
# RUN: %asc-fe --no-locations %s | FileCheck %s --check-prefix=GRAPH
import numpy as np

z = np.arange(12, dtype=np.int32)
for i in range(0, 12, 2):
    z[i] += z[i + 1]

# REMARK: remark: loop vectorised: 6 iterations of 'i' run as array operations
# GRAPH: Slice({{.*}}) {axes = [0], begin = [0], end = [11], step = [2], dynamic_axes = []} : s32[6]
# GRAPH: Slice({{.*}}) {axes = [0], begin = [1], end = [12], step = [2], dynamic_axes = []} : s32[6]
