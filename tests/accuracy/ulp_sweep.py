#!/usr/bin/env python3
"""Accuracy sweep of one NumPy math function compiled by pyasc and run on the simulator (or the CPU
backend, --backend cpu): the error
in ulp of every result against NumPy's float64 value rounded to the dtype (the correctly rounded
result), over 2^20 float32 points spread over the whole range (random bit patterns, so that every
exponent is as likely, plus zeros, subnormals, the largest values, infinities and NaN) or every
float16 value. A binary function (arctan2, hypot) takes 2^20 pairs of such points in either dtype,
the special values paired with each other, and pairs of close magnitudes; power takes pairs whose
results spread over the whole finite range (power_pairs). Fails when the largest error exceeds the bound, or differs from the figure the
accuracy table of the document given by --doc (docs/numpy-support.md) states for it. rsqrt, which
NumPy spells x ** -0.5, is swept as that expression against the same expression in float64 (C99's pow:
+inf at -0, 0 at -inf).

    ulp_sweep.py --bin-dir BUILD/bin FUNCTION DTYPE [--points N] [--max-abs X] [--bound ULP] [--doc FILE]
                 [--backend sim|cpu]
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np

BOUNDS = {"float32": 4, "float16": 1}
BINARY = {"arctan2", "hypot", "power"}
# functions NumPy spells as expressions: the program's expression and the float64 reference
EXPRESSIONS = {"rsqrt": ("x ** -0.5", lambda x: x ** -0.5)}
INT = {"float32": (np.int32, 0x7FFFFFFF), "float16": (np.int16, 0x7FFF)}


def points(dtype, count, max_abs):
    """The sweep's inputs: float16 exhaustively, float32 from random bits and the special values."""
    if dtype == "float16":
        x = np.arange(1 << 16, dtype=np.uint16).view(np.float16)
    else:
        rng = np.random.default_rng(20261201)
        x = rng.integers(0, 1 << 32, count, dtype=np.uint64).astype(np.uint32).view(np.float32)
        info = np.finfo(np.float32)
        special = [0.0, -0.0, np.inf, -np.inf, np.nan, info.max, -info.max, info.tiny, -info.tiny,
                   info.smallest_subnormal, -info.smallest_subnormal, 1.0, -1.0, 0.5, 2.0]
        x[:len(special)] = special
        # the floats nearest to multiples of π/2 over the whole range, and their neighbours: where a
        # trigonometric range reduction loses most
        k = np.unique(np.round(np.logspace(0, 38, 4000) * 2 / np.pi))
        near = (k * np.pi / 2).astype(np.float32)
        near = np.concatenate([near, np.nextafter(near, np.float32(np.inf)), np.nextafter(near, np.float32(0))])
        near = near[np.isfinite(near)]
        x[len(special):len(special) + near.size] = near
    if max_abs is not None:
        x = x[~(np.abs(x) > max_abs)]
    return np.ascontiguousarray(x)


def pairs(dtype, count, seed=20261202):
    """The binary sweep's (y, x): random bit patterns (NaNs made the quiet NaN NumPy spells), every
    pair of special values, and pairs of close magnitudes."""
    rng = np.random.default_rng(seed)
    int_type, _ = INT[dtype]
    bits = 8 * np.dtype(dtype).itemsize
    y, x = (rng.integers(0, 1 << bits, count, dtype=np.uint64).astype(np.dtype(int_type).str.replace("i", "u"))
            .view(dtype) for _ in range(2))
    y[np.isnan(y)] = np.nan
    x[np.isnan(x)] = np.nan
    special = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5]
    grid = np.array([(a, b) for a in special for b in special], dtype=dtype)
    y[:len(grid)], x[:len(grid)] = grid[:, 0], grid[:, 1]
    close = slice(len(grid), len(grid) + count // 16)
    with np.errstate(over="ignore"):
        x[close] = (y[close].astype(np.float64) * rng.uniform(0.5, 2.0, count // 16)).astype(dtype)
    return np.ascontiguousarray(y), np.ascontiguousarray(x)


def power_pairs(dtype, count, seed=20261203):
    """power's (x, y): a quarter of the special pairs and random bit patterns of `pairs` (mostly 0 or
    inf results); half with a random finite base and y = t / log2|x| for t uniform over the dtype's
    exponents, so that results spread over the whole finite range, subnormals included; an eighth
    with a negative base in (-4, -1) and an integral y; an eighth with a base within 2^-8 of 1 and a
    large y. Each base is rounded to the dtype before its exponent is chosen."""
    rng = np.random.default_rng(seed)
    x, y = pairs(dtype, count, seed + 1)
    info = np.finfo(dtype)
    low, high = np.log2(float(info.smallest_subnormal)), np.log2(float(info.max))
    start = count // 4
    with np.errstate(all="ignore"):
        for part, share in (("any", 4), ("negative", 1), ("near one", 1)):
            n = count * share // 8
            sl = slice(start, start + n)
            start += n
            if part == "near one":
                base = 1 + rng.uniform(-2.0 ** -8, 2.0 ** -8, n)
            elif part == "negative":
                base = -rng.uniform(1, 4, n)
            else:
                bits = rng.integers(0, 1 << info.bits, n, dtype=np.uint64)
                base = np.abs(bits.astype(np.dtype(INT[dtype][0]).str.replace("i", "u")).view(dtype).astype(np.float64))
            base = base.astype(dtype).astype(np.float64)
            base[~np.isfinite(base) | (base == 0) | (np.abs(base) == 1)] = 2.0
            exponent = rng.uniform(low, high, n) / np.log2(np.abs(base))
            if part == "negative":
                exponent = np.round(exponent)
            x[sl], y[sl] = base.astype(dtype), exponent.astype(dtype)
    return np.ascontiguousarray(x), np.ascontiguousarray(y)


def ordered(a, dtype):
    """Each value's place on the number line of its dtype (adjacent floats differ by 1; ±0 are 0)."""
    int_type, magnitude = INT[dtype]
    bits = a.view(int_type).astype(np.int64)
    return np.where(bits < 0, -(bits & magnitude), bits)


def ulp_errors(function, args, got, dtype):
    with np.errstate(all="ignore"):
        reference = EXPRESSIONS[function][1] if function in EXPRESSIONS else getattr(np, function)
        want = reference(*(a.astype(np.float64) for a in args)).astype(dtype)
    err = np.abs(ordered(got, dtype) - ordered(want, dtype))
    err[np.isnan(got) & np.isnan(want)] = 0
    err[np.isnan(got) != np.isnan(want)] = np.iinfo(np.int64).max
    return err, want


def program_source(function, names):
    """The swept program: `f(x)` (or `f(x, y)`) returning the function of its operands."""
    body = EXPRESSIONS[function][0] if function in EXPRESSIONS else f"np.{function}({', '.join(names)})"
    return f"import numpy as np\n\n\ndef f({', '.join(names)}):\n    return {body}\n"


def spelling(function):
    """How the accuracy table names the function: np.exp, or the expression (x ** -0.5)."""
    return EXPRESSIONS[function][0] if function in EXPRESSIONS else f"np.{function}"


def documented(doc, function, dtype):
    """The largest error the accuracy table of `doc` states for np.FUNCTION in DTYPE, or None."""
    columns = None
    with open(doc, encoding="utf-8") as fh:
        for line in fh:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if cells[0] == "function" and dtype in cells:
                columns = cells
            elif columns and cells[0] == f"`{spelling(function)}`":
                return int(cells[columns.index(dtype)])
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin-dir", required=True)
    ap.add_argument("function")
    ap.add_argument("dtype", choices=sorted(BOUNDS))
    ap.add_argument("--points", type=int, default=1 << 20, help="float32 points (float16: all 65,536)")
    ap.add_argument("--max-abs", type=float, help="sweep only |x| <= this")
    ap.add_argument("--bound", type=int, help="largest error allowed in ulp (default: 4 float32, 1 float16)")
    ap.add_argument("--backend", choices=["sim", "cpu"], default="sim", help="where the compiled sweep runs")
    ap.add_argument("--doc", help="a document whose accuracy table must state the measured figure")
    args = ap.parse_args()
    FUNCTION = args.function
    bound = BOUNDS[args.dtype] if args.bound is None else args.bound
    binary = FUNCTION in BINARY
    if FUNCTION == "power":
        inputs = dict(zip("xy", power_pairs(args.dtype, args.points)))
    elif binary:
        inputs = dict(zip("yx", pairs(args.dtype, args.points)))
    else:
        inputs = {"x": points(args.dtype, args.points, args.max_abs)}
    count = next(iter(inputs.values())).size
    pyasc = os.path.join(args.bin_dir, "pyasc")
    with tempfile.TemporaryDirectory() as tmp:
        program = os.path.join(tmp, "sweep.py")
        with open(program, "w", encoding="utf-8") as fh:
            fh.write(program_source(FUNCTION, list(inputs)))
        compile_cmd = [pyasc, "--target=ascend910b", "--entry=f", program, "-o", os.path.join(tmp, "sweep.om")]
        run_cmd = [pyasc, "run", os.path.join(tmp, "sweep.om"), "--output-dir", tmp, f"--backend={args.backend}"]
        for name, values in inputs.items():
            np.save(os.path.join(tmp, name + ".npy"), values)
            compile_cmd.append(f"--input={name}:{args.dtype}[{count}]")
            run_cmd += ["--input", f"{name}=" + os.path.join(tmp, name + ".npy")]
        subprocess.run(compile_cmd, check=True)
        subprocess.run(run_cmd, check=True, stdout=subprocess.DEVNULL)
        got = np.load(os.path.join(tmp, "out0.npy"))
    err, want = ulp_errors(FUNCTION, list(inputs.values()), got, args.dtype)
    worst = int(np.argmax(err))
    x = np.stack(list(inputs.values()), axis=-1) if binary else inputs["x"]
    scope = f"|x| <= {args.max_abs:g}" if args.max_abs is not None else "the whole range"
    print(f"{spelling(FUNCTION)} {args.dtype}: {count} {'pairs' if binary else 'points'} over {scope}, max {err[worst]} ulp "
          f"({'(' + ', '.join(inputs) + ')' if binary else 'x'} = {tuple(x[worst]) if binary else x[worst]!r}: {got[worst]!r}, "
          f"correctly rounded {want[worst]!r}), "
          f"{int((err > bound).sum())} above {bound} ulp")
    if args.doc:
        stated = documented(args.doc, FUNCTION, args.dtype)
        if stated != err[worst]:
            print(f"{args.doc}: the accuracy table states {stated} ulp for {spelling(FUNCTION)} {args.dtype}; measured {err[worst]}")
            return 1
    return 0 if err[worst] <= bound else 1


if __name__ == "__main__":
    sys.exit(main())
