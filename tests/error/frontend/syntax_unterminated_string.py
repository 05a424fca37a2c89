# RUN: asc-fe --emit=graph %s
import numpy as np
r = np.einsum("ij,jk->ik, a, b)
