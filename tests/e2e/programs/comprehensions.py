# e2e: --entry=f --input=a:float32[8] --input=m:float32[4,5]
# Python's list comprehensions, zip, enumerate and the builtins sum, max and min at compile time,
# np.array of arrays and numbers, and np.where with two Python scalars.
import numpy as np


def f(a, m):
    shifted = [m[:, i:i + 3] for i in range(3)]
    odd = np.array([i * i for i in range(7) if i % 2])
    paired = np.array([x - y for x, y in zip(a, a[::-1])])
    weighted = np.array([i * row for i, row in enumerate(m)])
    signs = np.where(a > 0.5, 1, -1)
    return (sum(shifted), odd, paired, weighted, max(a[0], a[1], a[2]), min(m[0, 0], 0.25), signs,
            np.array([a[0], a[1] * 2, 3.0]), np.array([a, a * 2]), [r.sum() for r in m][2])

