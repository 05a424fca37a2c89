# source: J. Kleinberg & É. Tardos, Algorithm Design (2005), §6.4 Subset Sums and Knapsacks
# 0/1 knapsack: best value for every capacity, updated one item at a time with a vectorised row update.
import numpy as np

np.random.seed(8)
weights = np.array([3, 7, 2, 9, 4, 6, 5, 8, 1, 10, 12, 3, 7, 5, 11, 2, 6, 4, 9, 8])
values = 1.0 + 9.0 * np.random.rand(len(weights))
capacity = 50

best = np.zeros(capacity + 1)
history = np.zeros((len(weights) + 1, capacity + 1))
for item in range(len(weights)):
    w = weights[item]
    candidate = best.copy()
    candidate[w:] = np.maximum(best[w:], best[:-w] + values[item])
    best = candidate
    history[item + 1] = best

max_value = best[capacity]
table = history
