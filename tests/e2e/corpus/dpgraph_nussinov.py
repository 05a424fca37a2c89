# source: PolyBench/C 4.2.1, kernel 'nussinov' (medley/nussinov, Nussinov RNA folding, description in polybench.pdf)
# Maximum number of complementary base pairs of an RNA sequence by Nussinov's dynamic program.
import numpy as np

n = 32
seq = (np.arange(n) + 1) % 4
table = np.zeros((n, n), dtype=int)


def match(b1, b2):
    return 1 if b1 + b2 == 3 else 0


for i in range(n - 1, -1, -1):
    for j in range(i + 1, n):
        if j - 1 >= 0:
            table[i, j] = max(table[i, j], table[i, j - 1])
        if i + 1 < n:
            table[i, j] = max(table[i, j], table[i + 1, j])
        if j - 1 >= 0 and i + 1 < n:
            if i < j - 1:
                table[i, j] = max(table[i, j], table[i + 1, j - 1] + match(seq[i], seq[j]))
            else:
                table[i, j] = max(table[i, j], table[i + 1, j - 1])
        for k in range(i + 1, j):
            table[i, j] = max(table[i, j], table[i, k] + table[k + 1, j])

pairs = table
