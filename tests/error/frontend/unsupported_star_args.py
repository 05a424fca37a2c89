# RUN: asc-fe --emit=graph %s
import numpy as np

def add_all(*arrays):
    return arrays[0]

x = add_all(np.ones(3))
