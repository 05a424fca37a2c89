# e2e: --entry=f --input=a:float32[48,48] --input=w:float32[48,16]
# Integer matrix products of bounded values: reachability in two steps of a boolean adjacency matrix
# (A.astype(int) @ A.astype(int)), counts of shared neighbours, and a small-integer weighted sum,
# computed exactly in float32 by stage narrow-integers.
import numpy as np


def f(a, w):
    adj = a > np.mean(a)
    hops = adj.astype(int) @ adj.astype(int)
    two_steps = (hops + adj.astype(int)) > 0
    shared = adj.astype(np.int64).T @ adj.astype(np.int64)
    levels = np.clip(np.floor(w * 4), -8, 8).astype(np.int64)  # small integers, bounded by the clip
    weighted = adj.astype(np.int64) @ levels
    return two_steps, shared.sum(axis=1), weighted, two_steps.sum()
