# Runs te.compute definitions under CPython + NumPy (python/te) and prints what they compute.
import numpy as np
import te
import te_op

from window3 import window3

x = (np.arange(8, dtype=np.float32) ** 2)
print("window3", " ".join("%.4f" % v for v in window3(x)))

a = np.arange(12, dtype=np.float16).reshape(3, 4)
b = np.array([1, -1, 2, 0.5], dtype=np.float16)
k = te.reduce_axis((0, 4), name="k")
dot = te.compute((3,), lambda i: te.sum(a[i, k] * b[k], axis=k))
print("row_dot", dot.dtype, " ".join("%g" % v for v in dot))

up = te.compute((8,), lambda i: x[i // 2])
print("upsample", " ".join("%g" % v for v in up))

clamped = te.compute((4, 4), lambda i, j: te.if_then_else(i >= j, a[i % 3, j], te.max(a[i % 3, j], 7)))
print("select", " ".join("%g" % v for v in clamped.ravel()))

xs = te.compute((8,), lambda i: x[i] + 0)  # an element function's value, typed as the compiler types it
for bad in (lambda i: x[i] + i, lambda i: x[min(i + 1, 7)], lambda i: te.exp(xs[i]) // 2):
    try:
        te.compute((8,), bad)
    except TypeError as e:
        print("TypeError:", e)
