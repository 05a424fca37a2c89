# source: Cormen et al., Introduction to Algorithms 3rd ed., §15.4 Longest common subsequence (LCS-LENGTH)
# Length table of the longest common subsequence of two integer-coded sequences.
import numpy as np

np.random.seed(3)
m, n = 24, 28
x = np.floor(np.random.rand(m) * 4).astype(int)
y = np.floor(np.random.rand(n) * 4).astype(int)

c = np.zeros((m + 1, n + 1))
for i in range(1, m + 1):
    for j in range(1, n + 1):
        if x[i - 1] == y[j - 1]:
            c[i, j] = c[i - 1, j - 1] + 1
        elif c[i - 1, j] >= c[i, j - 1]:
            c[i, j] = c[i - 1, j]
        else:
            c[i, j] = c[i, j - 1]

lcs_table = c
