# While loops whose conditions are array data: the host reads the condition back before each trip.
import numpy as np

np.random.seed(7)

# Jacobi relaxation until the largest change is small (the first trip runs at compile time, where
# `change` is still a Python number)
grid = np.random.rand(12, 12).astype(np.float32)
grid[:, 0] = 1.0
change = 1.0
sweeps = 0
while change > 1e-3:
    before = grid.copy()
    grid[1:-1, 1:-1] = 0.25 * (before[1:-1, 2:] + before[1:-1, :-2] + before[2:, 1:-1] + before[:-2, 1:-1])
    change = np.abs(grid - before).max()
    sweeps += 1

# breadth-first levels: a Python int counter carried by the loop, `any` as the condition
n = 20
adjacency = np.random.rand(n, n) < 0.08
adjacency = adjacency | np.roll(np.eye(n, dtype=bool), 1, axis=1)
level = np.full(n, -1)
frontier = np.zeros(n, dtype=bool)
frontier[0] = True
seen = frontier.copy()
depth = 0
while frontier.any():
    level[frontier] = depth
    frontier = ((adjacency.T.astype(int) @ frontier.astype(int)) > 0) & ~seen
    seen |= frontier
    depth += 1

# a loop whose condition is false before its first trip runs no trip
small = np.random.rand(8).astype(np.float32)
halvings = 0
while small.max() > 100.0:
    small = small * 0.5
    halvings += 1

# a while loop in a loop kept as a loop: each row doubles until its sum passes the row's limit
rows = np.random.rand(4, 6).astype(np.float32) + 0.1
limits = np.array([1.0, 10.0, 100.0, 1000.0], dtype=np.float32)
doubled = np.zeros(4, dtype=np.float32)
for i in range(4):
    row = rows[i]
    while row.sum() < limits[i]:
        row = row * 2.0
    doubled[i] = row.sum()

# a one-element array as the condition, and a float32 number carried
x = np.array([2.0], dtype=np.float32)
root = np.float32(1.0)
while x - root * root > 1e-4 * x:
    root = 0.5 * (root + x[0] / root)

# a one-element condition shared with an array read after the loop (the loop keeps its own copy)
level1 = np.array([5.0], dtype=np.float32)
active = level1 > 1.0
was_active = active
while active:
    level1 = level1 * 0.5
    active = level1 > 1.0
flags = was_active.astype(np.int32) * 2

# a while loop in a kept loop, counting on from the outer loop's index
values = np.random.rand(12).astype(np.float32)
run_sums = np.zeros(4, dtype=np.float32)
run_ends = np.zeros(4, dtype=np.int64)
for i in range(4):
    j = i
    s = values[i]
    while s < 1.5:
        j = j + 1
        s = s + values[j]
    run_sums[i] = s
    run_ends[i] = j

# the numbers the loops counted
counts = np.array([sweeps, depth, halvings])
