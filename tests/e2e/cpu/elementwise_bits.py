# The elementwise operators and casts the CPU backend must compute bit for bit as the simulator:
# every float16 value against a shuffled copy, 2^16 float32 bit patterns (cpu_matches_sim.py).
import numpy as np


def f(x, y, u, v):
    return (x + y, x - y, x * y, x / y, np.maximum(x, y), np.minimum(x, y), np.exp(x), np.log(x), np.sqrt(x),
            1 / x, np.abs(x), np.maximum(x, 0), np.tanh(x), np.sin(x), np.expm1(x), np.log1p(x), np.floor(x),
            np.rint(x), x < y, x == y, np.where(x < y, x, y), x.astype(np.float32), u.astype(np.float16),
            u + v, u - v, u * v, u / v, np.maximum(u, v), np.exp(u), np.log(u), np.sqrt(u), 1 / u, np.tanh(u),
            np.sin(u), np.cos(u), np.expm1(u), np.log1p(u), np.arctan(u), np.floor(u), np.ceil(u), np.rint(u),
            u.astype(np.int32), (u * 1000).astype(np.int32).astype(np.float16), u <= v, u != v)
