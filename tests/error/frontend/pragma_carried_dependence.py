# RUN: asc-fe --emit=graph %s
# parallelize on a loop whose iterations depend on each other is an error naming the dependence.
import numpy as np

a = np.random.rand(1024).astype(np.float32)

# pragma: parallelize factor=4
for i in range(1, 1024):
    a[i] = a[i - 1] * 0.5 + a[i]
