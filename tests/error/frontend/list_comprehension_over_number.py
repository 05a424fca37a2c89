# RUN: asc-fe --emit=graph %s
import numpy as np
rows = [np.ones(4) * i for i in 3]
