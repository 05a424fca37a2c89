# A time loop carries u from step to step and stays a loop; the space loop inside it is vectorised.
# RUN: %asc-fe --report=vectorize --no-locations %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
# RUN: %asc-fe --no-locations %s | FileCheck %s --check-prefix=GRAPH
import numpy as np

u = np.random.rand(20, 64).astype(np.float32)
for t in range(19):
    for i in range(1, 63):
        u[t + 1, i] = u[t, i] + 0.1 * (u[t, i - 1] - 2 * u[t, i] + u[t, i + 1])

# REMARK: stencil_in_time_loop.py:7:1: remark: loop not vectorised: 'u[t, i]' at t = 1, i = 1 reads what 'u[t + 1, i]' at t = 0, i = 1 wrote, an earlier iteration
# REMARK: note: read here
# REMARK: note: written here
# REMARK: stencil_in_time_loop.py:8:5: remark: loop vectorised: 62 iterations of 'i' run as array operations
# GRAPH: Loop(%rand) {start = 0, stop = 19, step = 1}
# GRAPH-NOT: Loop
# GRAPH: yield
