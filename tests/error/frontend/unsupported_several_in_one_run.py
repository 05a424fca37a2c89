# RUN: asc-fe --emit=graph %s
import numpy as np
del np
rows = (i for i in range(3))

class Net:
    pass

assert rows
