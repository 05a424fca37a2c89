# source: R. A. Wagner & M. J. Fischer, "The String-to-String Correction Problem", J. ACM 21(1), 1974 (Levenshtein distance recurrence)
# Levenshtein distance matrix, each row computed at once with a running-minimum scan for insertions.
import numpy as np

np.random.seed(5)
m, n = 30, 36
a = np.floor(np.random.rand(m) * 5)
b = np.floor(np.random.rand(n) * 5)

D = np.zeros((m + 1, n + 1))
D[0, :] = np.arange(n + 1)
D[:, 0] = np.arange(m + 1)
idx = np.arange(n + 1)
for i in range(1, m + 1):
    cost = (a[i - 1] != b).astype(float)
    t = np.empty(n + 1)
    t[0] = i
    t[1:] = np.minimum(D[i - 1, 1:] + 1.0, D[i - 1, :-1] + cost)
    D[i, :] = np.minimum.accumulate(t - idx) + idx

distance = D[m, n]
table = D
