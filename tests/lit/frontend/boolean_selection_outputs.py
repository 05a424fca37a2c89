# A top-level boolean-mask selection is not a script output (its length depends on the data): a
# warning says so, and its count and sum are outputs.
# RUN: %asc-fe --emit=graph --no-locations %s 2>&1 | FileCheck %s
import numpy as np
x = np.linspace(-1.0, 1.0, 9, dtype=np.float32)
positive = x[x > 0]
count = np.zeros(1, dtype=np.int32) + len(positive)
total = np.zeros(1, dtype=np.float32) + positive.sum()

# CHECK-NOT: output positive
# CHECK: output count =
# CHECK-NEXT: output total =
# CHECK-NOT: output positive
# CHECK: boolean_selection_outputs.py:6:1: warning: 'positive' is not an output: it is a boolean-mask selection, whose length depends on the data
