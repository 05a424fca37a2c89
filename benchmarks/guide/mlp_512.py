# Two 512 x 512 x 512 matmuls with a ReLU and a scale between them: what automatic mixed precision
# speeds up (pyasc check --auto-mixed-precision=O1|O2 prints the cycles against float32).
import numpy as np

np.random.seed(3)
x = np.random.rand(512, 512).astype(np.float32) - 0.5
w = np.random.rand(512, 512).astype(np.float32) - 0.5
y = np.maximum(x @ w, 0) * 0.5
z = y @ w
