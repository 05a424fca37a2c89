# RUN: pyasc check --max-while-trips=5 %s
# a while loop that runs past --max-while-trips stops the run with the loop's line
import numpy as np

x = np.array([1.0, 2.0, 3.0], dtype=np.float32)
while x.sum() > 0.0:
    x = x * 0.5
