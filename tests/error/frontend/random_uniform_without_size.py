# RUN: asc-fe --emit=graph %s
# np.random.uniform without a size is one Python float, drawn at run time in NumPy; pyasc needs a shape.
import numpy as np

x = np.random.uniform(0.0, 1.0)
