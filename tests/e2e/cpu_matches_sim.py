#!/usr/bin/env python3
"""The CPU backend computes elementwise operators and casts bit for bit as the simulator.

Compiles tests/e2e/cpu/elementwise_bits.py (ascend910b, O2), runs it on both backends with every
float16 value (against a shuffled copy) and 2^16 float32 bit patterns (random, plus zeros,
infinities, NaN, subnormals and the extremes), and compares every output: equal bits, or NaN on
both (NaN payloads are not compared). The exception: in float32 lanes the CPU backend computes exp
and log in float32 (the simulator rounds a float64 result), so the float32 outputs built on them
(NEAR) must be within ULPS units in the last place of the simulator's, with the same infinities,
zeros and NaNs. Prints the differing elements of each output; exits 1 on any.
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np

N = 1 << 16
NEAR = {28: "exp", 29: "log", 32: "tanh", 35: "expm1", 36: "log1p"}  # outputs of float32 u
ULPS = 4


def inputs():
    rng = np.random.default_rng(7)
    x = np.arange(N, dtype=np.uint16).view(np.float16)
    y = x[rng.permutation(N)]
    bits = rng.integers(0, 1 << 32, N, dtype=np.uint64).astype(np.uint32)
    special = np.array([0, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x00000001, 0x807FFFFF, 0x7F7FFFFF,
                        0x3F800000, 0xBF800000, 0x4B000000, 0x3F000000, 0x3FC00000, 0x4F000000, 0xCF000000],
                       dtype=np.uint32)
    bits[:len(special)] = special
    u = bits.view(np.float32)
    v = u[rng.permutation(N)]
    return {"x": x, "y": y, "u": u, "v": v}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin-dir", required=True)
    args = ap.parse_args()
    pyasc = os.path.join(args.bin_dir, "pyasc")
    program = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cpu", "elementwise_bits.py")
    with tempfile.TemporaryDirectory() as tmp:
        model = os.path.join(tmp, "m.om")
        spec = ["--input=x:float16[%d]" % N, "--input=y:float16[%d]" % N, "--input=u:float32[%d]" % N,
                "--input=v:float32[%d]" % N]
        subprocess.run([pyasc, "--target=ascend910b", "--opt-level=O2", "--entry=f"] + spec + [program, "-o", model],
                       check=True)
        binds = []
        for name, array in inputs().items():
            path = os.path.join(tmp, name + ".npy")
            np.save(path, array)
            binds += ["--input", name + "=" + path]
        outs = {}
        for backend in ("sim", "cpu"):
            folder = os.path.join(tmp, backend)
            subprocess.run([pyasc, "run", model, "--backend=" + backend, "--output-dir", folder] + binds, check=True,
                           stdout=subprocess.DEVNULL)
            outs[backend] = folder
        failures = 0
        names = sorted(os.listdir(outs["sim"]), key=lambda n: int(n[3:-4]))
        for name in names:
            a, b = np.load(os.path.join(outs["sim"], name)), np.load(os.path.join(outs["cpu"], name))
            if a.dtype != b.dtype or a.shape != b.shape:
                print(f"{name}: simulator {a.dtype}{list(a.shape)}, CPU {b.dtype}{list(b.shape)}")
                failures += 1
                continue
            same = a.view(np.uint8).reshape(a.size, -1) == b.view(np.uint8).reshape(b.size, -1)
            same = same.all(axis=1)
            if a.dtype.kind == "f":
                same |= np.isnan(a) & np.isnan(b)
            near = int(name[3:-4]) in NEAR
            if near:
                with np.errstate(invalid="ignore"):
                    ulps = np.abs(a.astype(np.float64) - b.astype(np.float64)) / np.spacing(np.abs(a)).astype(np.float64)
                same |= np.isfinite(a) & np.isfinite(b) & (a != 0) & (ulps <= ULPS)
            bad = np.flatnonzero(~same)
            status = "ok" if bad.size == 0 else f"{bad.size} elements differ"
            if near and bad.size == 0:
                status = f"within {ULPS} ulp ({NEAR[int(name[3:-4])]}: {int((ulps > 0).sum())} differ, at most {np.nanmax(ulps):.2f} ulp)"
            print(f"{name[:-4]:6} {str(a.dtype):8} {status}")
            if bad.size:
                failures += 1
                for k in bad[:5]:
                    print(f"    [{k}] simulator {a[k]!r} CPU {b[k]!r}")
        near = sum(1 for n in names if int(n[3:-4]) in NEAR)
        print(f"{len(names) - failures} of {len(names)} outputs as required: {len(names) - near} bit-exact, {near} within {ULPS} ulp")
        return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
