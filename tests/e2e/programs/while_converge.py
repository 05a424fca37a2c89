# e2e: --entry=newton_sqrt --input=a:float32[64]
# A function whose while loop's trip count depends on its input: Newton's square root until the
# largest relative step is small, and the trips it took.
import numpy as np


def newton_sqrt(a):
    x = np.abs(a) + 1.0
    target = np.abs(a)
    steps = 0
    step = np.float32(1.0)
    while step > 1e-6:
        nxt = 0.5 * (x + target / x)
        step = np.max(np.abs(nxt - x) / nxt)
        x = nxt
        steps += 1
    return x, np.array(steps)
