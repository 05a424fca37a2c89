#!/usr/bin/env python3
"""The offline accuracy sweep: every float32 bit pattern (2^32 points) of each unary math function,
and many more pairs than ctest for the binary ones, through the Python binding on the CPU backend
(or the simulator), against NumPy's float64 value rounded to float32; the same error measure as
tests/accuracy/ulp_sweep.py. Prints one line per function (largest error, where, how many points
above the bound) and its progress on stderr.

    PYTHONPATH=python:BUILD/python full_sweep.py [--functions exp,sin] [--backend cpu|sim]
                                                 [--chunk-log2 22] [--stride 1] [--pairs-log2 26]
"""
import argparse
import os
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "accuracy"))
import ulp_sweep  # noqa: E402  (the ctest sweep's inputs and error measure)

import pyasc  # noqa: E402

UNARY = ["exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt", "sin", "cos", "tan", "arcsin",
         "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh", "arccosh", "arctanh", "rsqrt"]
BINARY = ["arctan2", "hypot", "power"]


def compiled(function, names, count, tmp):
    path = os.path.join(tmp, function + ".py")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(ulp_sweep.program_source(function, names))
    return pyasc.compile(path, entry="f", inputs={n: ("float32", [count]) for n in names}, target="ascend910b")


def operand_names(function):
    """The swept program's parameters, in the order the ctest generators return their arrays."""
    if function not in BINARY:
        return ["x"]
    return list("xy" if function == "power" else "yx")


def chunk_count(function, args):
    size = 1 << args.chunk_log2
    if function in BINARY:
        return max(1, (1 << args.pairs_log2) // size)
    return (1 << 32) // (size * args.stride)


def chunks(function, args):
    """The sweep's inputs, one chunk at a time: consecutive bit patterns (every `stride`-th) for a
    unary function, fresh seeds of the ctest generators for a binary one."""
    size = 1 << args.chunk_log2
    names = operand_names(function)
    for i in range(chunk_count(function, args)):
        if function in BINARY:
            generator = ulp_sweep.power_pairs if function == "power" else ulp_sweep.pairs
            yield dict(zip(names, generator("float32", size, 1000 + 2 * i)))
        else:
            start = i * size * args.stride
            bits = np.arange(start, start + size * args.stride, args.stride, dtype=np.uint64).astype(np.uint32)
            yield {"x": bits.view(np.float32)}


def sweep(function, args, tmp):
    names = operand_names(function)
    model = compiled(function, names, 1 << args.chunk_log2, tmp)
    total = chunk_count(function, args)
    worst, where, above, points = -1, None, 0, 0
    started = time.time()
    for i, inputs in enumerate(chunks(function, args)):
        got = model.run(*(inputs[n] for n in names), backend=args.backend)["out0"]
        operands = [inputs[n] for n in names]
        err, want = ulp_sweep.ulp_errors(function, operands, got, "float32")
        j = int(np.argmax(err))
        if err[j] > worst:
            worst, where = int(err[j]), (tuple(float(a[j]) for a in operands), float(got[j]), float(want[j]))
        above += int((err > ulp_sweep.BOUNDS["float32"]).sum())
        points += err.size
        if (i + 1) % max(1, total // 10) == 0:
            print(f"  {function}: {i + 1}/{total} chunks, max {worst} ulp so far, {time.time() - started:.0f} s",
                  file=sys.stderr, flush=True)
    operand, got, want = where
    print(f"{ulp_sweep.spelling(function)} float32: {points} {'pairs' if function in BINARY else 'points'}, "
          f"max {worst} ulp ({', '.join(names)} = {operand}: {got!r}, correctly rounded {want!r}), "
          f"{above} above {ulp_sweep.BOUNDS['float32']} ulp, {time.time() - started:.0f} s", flush=True)
    return worst <= ulp_sweep.BOUNDS["float32"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--functions", default=",".join(UNARY + BINARY), help="comma-separated (default: all)")
    ap.add_argument("--backend", choices=["cpu", "sim"], default="cpu")
    ap.add_argument("--chunk-log2", type=int, default=22, help="points per call: 2^N")
    ap.add_argument("--stride", type=int, default=1, help="unary: every N-th bit pattern (1: all 2^32)")
    ap.add_argument("--pairs-log2", type=int, default=26, help="binary: 2^N pairs")
    args = ap.parse_args()
    functions = args.functions.split(",")
    unknown = [f for f in functions if f not in UNARY + BINARY]
    if unknown:
        ap.error(f"unknown function '{unknown[0]}'; known: {', '.join(UNARY + BINARY)}")
    if not getattr(pyasc, "has_native", False):
        ap.error("the native module is not on PYTHONPATH (BUILD/python)")
    with tempfile.TemporaryDirectory() as tmp:
        ok = [sweep(f, args, tmp) for f in functions]
    return 0 if all(ok) else 1


if __name__ == "__main__":
    sys.exit(main())
