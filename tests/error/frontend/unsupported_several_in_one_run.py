# RUN: asc-fe --emit=graph %s
import numpy as np
square = lambda x: x * x
rows = (i for i in range(3))

class Net:
    pass

assert rows
