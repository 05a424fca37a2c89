# Values of different dynamic shapes, and a static one, next to each other: each kernel takes its own
# element count (a static chain next to a dynamic one, or two dimensions at different extents, once
# ran at one count), and a per-column row read twice is copied once.
# e2e: --entry=f --input=x:float32[N,6] --input=y:float32[40,6] --input=z:float32[M,6] --dynamic-dims=N=1-40,M=1-40
# e2e-also: --input-shape x=3,6 --input-shape z=37,6 --input-shape x=40,6 --input-shape z=1,6
# e2e-also: --opt-level=O1 --input-shape x=21,6 --input-shape z=2,6
import numpy as np


def f(x, y, z):
    row = np.array([1.0, -2.0, 0.5, 3.0, -0.25, 2.0], dtype=np.float32)
    a = x * row + 1
    b = (z - row) * row  # as many elements as a at the largest shapes
    return a, b, y * 2
