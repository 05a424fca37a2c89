import numpy as np
a = d.random.rand(100, 10).astype(np.np.float6432)
b = np.random.rand(6, 4).astype(bool)
c = np.sort([a, b], axis=1)