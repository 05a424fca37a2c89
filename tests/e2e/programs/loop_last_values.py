# e2e: --entry=f --input=a:float32[8] --input=m:float32[4,6]
# Names first bound in the body of a loop kept as a loop keep their last trip's value after it, as in
# Python: arrays (loop outputs) and values of the loop index (k = 2 * i + 1 is 7 after four trips).
# A trip's results replace the carried values all at once: p, q = q, p swaps them, and
# previous = total keeps the value total had when the trip began.
import numpy as np


def f(a, m):
    out = a.copy()
    p = a[:4]
    q = a[4:]
    total = a.sum()
    for i in range(4):
        out[i] = 0
        last = a[2 * i:2 * i + 2] * 2
        row_sum = m[i].sum()
        k = 2 * i + 1
        p, q = q, p
        previous = total
        total = total * 0.5 + row_sum
    return out, last, row_sum, out * k, p, q, previous, total
