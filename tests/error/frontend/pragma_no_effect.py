# RUN: asc-fe --emit=graph %s
# The guide's pragmas are parsed and kept on the graph, but no stage acts on them yet: each says so.
import numpy as np

data = np.ones(1024, dtype=np.float32)

# pragma: parallelize factor=4
for i in range(1024):
    data[i] = data[i] * 2

# pragma: auto_mixed_precision mode=O2
y = data @ data
