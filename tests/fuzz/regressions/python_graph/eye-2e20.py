import numpy as np
x = np.eye(2**20)
y = np.linspace(0, 1, 2**40)
