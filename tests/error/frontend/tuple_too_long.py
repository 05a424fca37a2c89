# RUN: asc-fe --emit=graph %s
import numpy as np

shape = (1,) * 1000000000
