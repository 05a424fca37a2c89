# RUN: asc-fe --emit=graph %s
import numpy as np
square = lambda x: x * x
