# RUN: asc-fe --emit=graph %s
# Graph constants are doubles: an integer with more than 53 significant bits is refused, not rounded.
import numpy as np

x = np.arange(8, dtype=np.int64) * 3
a = x & 0x7FFFFFFFFFFFFFFF
