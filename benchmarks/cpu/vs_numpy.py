#!/usr/bin/env python3
"""The CPU backend against NumPy, measured in one process on the same inputs.

Each program of benchmarks/cpu/programs.py is compiled for ascend910b (O2) through the Python binding
and called as `model(*arrays)`; NumPy runs the same function. Both allocate their outputs on every
call; the model also copies its inputs in (the binding's cost, included). Times are the best of
--repeat calls after one warm-up; JIT compilation (the first call) is reported apart. A ratio above
1 means the CPU backend is faster than NumPy.

    PYTHONPATH=python:build/python /usr/bin/python3 benchmarks/cpu/vs_numpy.py [--repeat 5] [--small]
"""
import argparse
import os
import sys
import time

import numpy as np

import pyasc

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import programs  # noqa: E402


def best_ms(f, repeat):
    """The best of `repeat` timings of f, in ms; a call under 2 ms is timed in batches of 10^k calls
    that last at least 2 ms (as timeit's autorange does), one call's timing being mostly the
    timer's and the cold caches' noise at that scale."""
    f()
    number = 1
    while True:
        start = time.perf_counter()
        for _ in range(number):
            f()
        if time.perf_counter() - start >= 2e-3 or number >= 10 ** 6:
            break
        number *= 10
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            f()
        times.append((time.perf_counter() - start) / number)
    return min(times) * 1e3


def blas_name():
    try:
        info = np.__config__.get_info("blas_opt_info") or np.__config__.get_info("blas_info")
        return ",".join(info.get("libraries", [])) or "unknown"
    except Exception:  # newer NumPy
        return "unknown"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--small", action="store_true", help="1/16 of the sizes, for a quick look")
    args = ap.parse_args()
    if not pyasc.has_native or not pyasc.has_cpu_backend:
        sys.exit("vs_numpy: needs the native module with the CPU backend: PYTHONPATH=python:build/python")
    scale = 4 if args.small else 1
    rng = np.random.default_rng(0)
    n = (1 << 24) // (scale * scale)
    side = 4096 // scale
    mm = 1024 // scale

    def f32(*shape):
        return rng.random(shape, dtype=np.float32)

    cases = [
        ("chain", [f32(n), f32(n)], f"{n} elements, 3 operations fused"),
        ("transcendental", [f32(n) * 4 - 2], f"{n} elements, exp + tanh"),
        ("matmul", [f32(mm, mm), f32(mm, mm)], f"{mm}x{mm}x{mm}"),
        ("row_sum", [f32(side, side)], f"{side}x{side}"),
        ("softmax_rows", [f32(side, side)], f"{side}x{side}"),
        ("layer_norm", [f32(side, side), f32(side), f32(side)], f"{side}x{side}"),
    ]
    path = os.path.join(HERE, "programs.py")
    print(f"NumPy {np.__version__} (BLAS: {blas_name()}), {os.cpu_count()} cores, best of {args.repeat}")
    print(f"{'program':16} {'size':28} {'NumPy ms':>10} {'CPU ms':>10} {'ratio':>7} {'JIT ms':>8}")
    for name, arrays, size in cases:
        f = getattr(programs, name)
        params = f.__code__.co_varnames[:f.__code__.co_argcount]
        model = pyasc.compile(path, entry=name, target="ascend910b", opt_level="O2",
                              inputs={p: (a.dtype.name, list(a.shape)) for p, a in zip(params, arrays)})
        model(*arrays)
        jit = model.stats["compile_ms"]
        numpy_ms = best_ms(lambda: f(*arrays), args.repeat)
        cpu_ms = best_ms(lambda: model(*arrays), args.repeat)
        print(f"{name:16} {size:28} {numpy_ms:10.2f} {cpu_ms:10.2f} {numpy_ms / cpu_ms:7.2f} {jit:8.0f}")


if __name__ == "__main__":
    main()
