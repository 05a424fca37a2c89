# source: Cormen et al., Introduction to Algorithms 3rd ed., §15.2 Matrix-chain multiplication (MATRIX-CHAIN-ORDER)
# Minimum scalar-multiplication cost and split table for parenthesising a chain of 12 matrices.
import numpy as np

p = np.array([30, 35, 15, 5, 10, 20, 25, 40, 12, 8, 22, 16, 18])
n = len(p) - 1

m = np.zeros((n, n))
s = np.zeros((n, n), dtype=int)
for l in range(2, n + 1):
    for i in range(0, n - l + 1):
        j = i + l - 1
        m[i, j] = np.inf
        for k in range(i, j):
            q = m[i, k] + m[k + 1, j] + p[i] * p[k + 1] * p[j + 1]
            if q < m[i, j]:
                m[i, j] = q
                s[i, j] = k

cost = m
split = s
