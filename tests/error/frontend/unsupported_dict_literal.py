# RUN: asc-fe --emit=graph %s
import numpy as np
weights = {"w": np.ones(3)}
