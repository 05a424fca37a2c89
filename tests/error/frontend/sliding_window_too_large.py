# RUN: asc-fe --emit=graph %s
import numpy as np

x = np.zeros((4, 6), dtype=np.float32)
v = np.lib.stride_tricks.sliding_window_view(x, (5, 2))
